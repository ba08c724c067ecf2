from .graph_dataset import Graph, GraphDataset, collate

__all__ = ['Graph', 'GraphDataset', 'collate']
