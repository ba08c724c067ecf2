"""Console entry point (`yoyodyne-train` in setup.cfg)."""
from yoyodyne.train import main

if __name__ == "__main__":
    main()
