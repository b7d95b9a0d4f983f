"""CipherBench. `python main.py` opens the window; `python main.py --help` lists the commands."""

import sys

from app.__main__ import main

if __name__ == "__main__":  # required: worker processes are spawned and re-import this module
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen (packaged) app starts its workers through here
    sys.exit(main())
