import numpy as np


def make_train_data(reward, done, value, gamma, num_step, num_worker):
    discounted_return = np.empty([num_worker, num_step])
    running_add = value[:, -1]
    for t in range(num_step - 1, -1, -1):
        running_add = reward[:, t] + gamma * running_add * (1 - done[:, t])
        discounted_return[:, t] = running_add
    adv = discounted_return - value[:, :-1]
    return discounted_return.reshape([-1]), adv.reshape([-1])


class RunningMeanStd(object):
    def __init__(self, epsilon=1e-4, shape=()):
        self.mean = np.zeros(shape, 'float64')
        self.var = np.ones(shape, 'float64')
        self.count = epsilon

    def update(self, x):
        self.mean = np.mean(x, axis=0)
        self.var = np.var(x, axis=0) + 1e-8


def softmax(z):
    s = np.exp(z - np.max(z, axis=1, keepdims=True))
    return s / s.sum(axis=1, keepdims=True)
