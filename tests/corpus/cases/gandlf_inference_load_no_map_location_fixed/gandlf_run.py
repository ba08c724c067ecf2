#!/usr/bin/env python
import argparse

from GANDLF.cli.main_run import main_run

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="GANDLF")
    parser.add_argument("-i", "--inputdata", type=str, default="data.csv", help="Data CSV file")
    parser.add_argument("-c", "--config", type=str, default="config.yaml", help="The configuration file")
    parser.add_argument("-m", "--modeldir", type=str, required=True, help="Model directory")
    parser.add_argument("-t", "--train", type=int, default=0, help="1: training and 0: inference")
    parser.add_argument("-d", "--device", default="cuda", type=str, help="Device to perform requested session on 'cpu' or 'cuda'")
    args = parser.parse_args()
    main_run(args.inputdata, args.config, args.modeldir, args.train, args.device)
