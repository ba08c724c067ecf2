from .hcnn import *
