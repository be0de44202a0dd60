from termsolitaire.cli import main

raise SystemExit(main())
