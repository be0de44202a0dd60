"""Play without installing: ``termsolitaire serve`` (an SSH server) and ``termsolitaire web``.

Every SSH session gets its own process: the app runs on a pseudo-terminal of its
own (:mod:`.apprun`), the SSH channel and the pty exchange bytes, and a
dropped connection hangs the app up so it saves, exactly as a local terminal
closing would. The player's public key is the account (:mod:`.players`); the
limits that keep one machine usable live in :mod:`.limits`; :mod:`.server`
ties them together; the command lines are :mod:`termsolitaire.commands.serve`
and :mod:`termsolitaire.commands.web`. No module here
imports textual: the server never draws anything itself.
"""

import warnings

# asyncssh (2.24 still) names cryptography's DSA classes, which cryptography
# deprecates with a warning when asyncssh is imported: five lines of "DSA is
# deprecated" at the top of every server's log, about keys this server never
# makes (its host key is Ed25519). Set before any module here imports asyncssh.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
