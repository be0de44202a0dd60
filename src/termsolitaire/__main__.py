from termsolitaire.entry import main

raise SystemExit(main())
