from .knn import KNN
