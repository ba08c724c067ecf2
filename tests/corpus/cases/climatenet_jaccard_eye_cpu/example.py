from os import path

from climatenet.models import CGNet
from climatenet.utils.data import ClimateDatasetLabeled
from climatenet.utils.utils import Config

config = Config("config.json")
cgnet = CGNet(config)

train_path = "PATH_TO_TRAINING_SET"
train = ClimateDatasetLabeled(path.join(train_path, "train"), config)
cgnet.train(train)
cgnet.save_model("trained_cgnet")
