import logging
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from wrench.dataset import load_dataset
from wrench.labelmodel import MajorityVoting
from wrench.metalearning import MetaWeightNet

logging.basicConfig(format='%(asctime)s - %(message)s', datefmt='%Y-%m-%d %H:%M:%S', level=logging.INFO)
logger = logging.getLogger(__name__)

device = torch.device('cuda')

#### Load dataset
dataset_path = '../datasets/'
data = 'youtube'
train_data, valid_data, test_data = load_dataset(
    dataset_path,
    data,
    extract_feature=True,
    extract_fn='bert',  # extract bert embedding
    model_name='bert-base-cased',
    cache_name='bert'
)

#### Run label model (Snorkel in the original script)
label_model = MajorityVoting()
label_model.fit(dataset_train=train_data, dataset_valid=valid_data)

#### Filter out uncovered training data
train_data = train_data.get_covered_subset()
aggregated_labels = label_model.predict(train_data)

#### Run end model: MetaWeightNet
model = MetaWeightNet(
    batch_size=32,
    n_steps=20,
    backbone='MLP',
    optimizer='SGD',
    optimizer_lr=1e-1,
    v_net_optimizer='Adam',
    v_net_optimizer_lr=1e-3,
)
history = model.fit(
    dataset_train=train_data,
    y_train=aggregated_labels,
    dataset_valid=valid_data,
    device=device
)
logger.info(f'MetaWeightNet last step: {history[max(history)]}')
