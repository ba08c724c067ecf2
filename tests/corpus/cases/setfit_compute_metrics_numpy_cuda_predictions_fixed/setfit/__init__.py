from setfit.modeling import SetFitModel
from setfit.trainer import SetFitTrainer
