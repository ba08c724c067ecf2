import random
from collections import deque, namedtuple

Transition = namedtuple("Transition", ("state", "next_state", "action", "reward", "mask"))


class Memory:
    def __init__(self, capacity):
        self.memory = deque(maxlen=capacity)

    def push(self, state, next_state, action, reward, mask):
        self.memory.append(Transition(state, next_state, action, reward, mask))

    def sample(self, batch_size):
        transitions = random.sample(self.memory, batch_size)
        return Transition(*zip(*transitions))
