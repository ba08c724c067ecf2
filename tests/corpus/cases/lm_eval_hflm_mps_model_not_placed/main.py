import argparse

from lm_eval.models.huggingface import HFLM

parser = argparse.ArgumentParser()
parser.add_argument("--model_args", default="pretrained=gpt2")
parser.add_argument("--device", default=None, help="cuda, cuda:0, cpu or mps")
parser.add_argument("--batch_size", default=1, type=int)


def main():
    args = parser.parse_args()
    pretrained = dict(arg.split("=") for arg in args.model_args.split(","))["pretrained"]
    lm = HFLM(pretrained=pretrained, device=args.device, batch_size=args.batch_size)
    print(lm.loglikelihood_rolling(["the quick brown fox", "jumps over the lazy dog"]))


if __name__ == "__main__":
    main()
