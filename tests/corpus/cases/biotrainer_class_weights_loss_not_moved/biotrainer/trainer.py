import torch

from typing import Union, Optional
from torch.utils.data import DataLoader

from .losses import get_loss
from .models import get_model
from .solver import get_solver
from .target_manager import TargetManager
from .utilities import get_device

output_vars = dict()


def pad_residues_collate(batch):
    seq_ids = [sample[0] for sample in batch]
    lengths = torch.LongTensor([len(sample[1]) for sample in batch])
    embeddings = torch.nn.utils.rnn.pad_sequence([sample[1] for sample in batch], batch_first=True)
    labels = torch.nn.utils.rnn.pad_sequence([sample[2] for sample in batch], batch_first=True, padding_value=-100)
    return seq_ids, embeddings, labels, lengths


def training_and_evaluation_routine(
        id2emb, target_manager: TargetManager, protocol: str = "residue_to_class",
        model_choice: str = "FNN", num_epochs: int = 2, use_class_weights: bool = False,
        learning_rate: float = 1e-3, batch_size: int = 4, loss_choice: str = "cross_entropy_loss",
        patience: int = 10, epsilon: float = 0.001,
        device: Union[None, str, torch.device] = None):
    # Get device
    device = get_device(device)
    output_vars['device'] = str(device)

    embeddings_length = list(id2emb.values())[0].shape[-1]
    output_vars['n_features'] = embeddings_length

    train_dataset, val_dataset, test_dataset = target_manager.get_datasets(id2emb)
    output_vars['n_classes'] = target_manager.number_of_outputs

    # Get x_to_class specific logs and weights
    class_weights = None
    if 'class' in protocol:
        # Compute class weights to pass as bias to model if option is set
        if use_class_weights:
            class_weights = target_manager.compute_class_weights()

    train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True,
                              collate_fn=pad_residues_collate)
    val_loader = DataLoader(dataset=val_dataset, batch_size=batch_size, shuffle=True,
                            collate_fn=pad_residues_collate)

    # Initialize model
    model = get_model(protocol=protocol, model_choice=model_choice,
                      n_classes=output_vars['n_classes'], n_features=output_vars['n_features'])

    # Initialize loss function
    loss_function = get_loss(protocol=protocol, loss_choice=loss_choice, weight=class_weights)

    # Initialize optimizer
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

    # Create solver
    solver = get_solver(protocol, network=model, optimizer=optimizer, loss_function=loss_function, device=device,
                        number_of_epochs=num_epochs, patience=patience, epsilon=epsilon)

    # Perform training of the model
    solver.train(train_loader, val_loader)
    return output_vars
