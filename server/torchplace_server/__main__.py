"""`python -m torchplace_server [--stdio | --tcp HOST:PORT]`: start the server."""
import sys

from .serve_command import main

if __name__ == "__main__":
    sys.exit(main())
