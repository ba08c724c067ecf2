from .agent import *
from .env import *
from .format import *
from .other import *
from .storage import *
