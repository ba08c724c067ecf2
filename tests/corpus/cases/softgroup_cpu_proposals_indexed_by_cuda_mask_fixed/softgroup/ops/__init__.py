from .functions import ball_query, bfs_cluster, voxelization

__all__ = ['ball_query', 'bfs_cluster', 'voxelization']
