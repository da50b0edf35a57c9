import sys

from miai.cli import main

sys.exit(main())
