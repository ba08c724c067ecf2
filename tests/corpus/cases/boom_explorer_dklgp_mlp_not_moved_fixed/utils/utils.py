# Author: baichen318@gmail.com


import os
import yaml
import argparse
from typing import Dict, Optional, NoReturn


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument(
        "-c",
        "--configs",
        type=str,
        default="configs/boom-explorer.yml",
        help="YAML file to be handled"
    )
    return parser.parse_args()


def get_configs(fyaml: str) -> Dict:
    if_exist(fyaml, strict=True)
    with open(fyaml, 'r') as f:
        configs = yaml.load(f, Loader=yaml.FullLoader)
    return configs


def if_exist(path: str, strict: bool = False) -> Optional[bool]:
    if os.path.exists(path):
        return True
    else:
        warn("{} is not found.".format(path))
        if strict:
            exit(1)
        else:
            return False


def info(msg: str) -> NoReturn:
    print("[INFO]: {}".format(msg))


def warn(msg: str) -> NoReturn:
    print("[WARN]: {}".format(msg))


def assert_error(msg: str) -> str:
    return "[ERROR]: {}".format(msg)
