"""The README's usage: generate molecules with a requested property from Python."""
from didgen import generate

number_of_samples = 1
outdir = "out"
config_dict = {"max_size": 9, "starting_size": 9}

out = generate(number_of_samples, outdir, config_dict)
