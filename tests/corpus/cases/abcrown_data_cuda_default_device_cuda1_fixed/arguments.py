"""Global configuration, filled from the command line (stand-in for abcrown's ConfigHandler)."""
import argparse

Config = {
    "general": {"device": "cuda", "seed": 100},
    "specification": {"norm": float("inf")},
    "bab": {"decision_thresh": 0.0},
}


def parse_config(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=str, default="cuda",
                        help="Select device to run verifier, cpu or cuda (GPU), or cuda:N.")
    args = parser.parse_args(argv)
    Config["general"]["device"] = args.device
