import numpy as np


class _Conn(object):
    """In-process stand-in for one end of multiprocessing.Pipe()."""

    def __init__(self):
        self.env = None
        self.inbox = []

    def send(self, action):
        self.inbox.append(self.env.step(action))

    def recv(self):
        return self.inbox.pop(0)


def Pipe():
    conn = _Conn()
    return conn, conn


class AtariEnvironment(object):
    """Stand-in for the worker process running gym's Atari game."""

    def __init__(self, env_id, is_render, env_idx, child_conn):
        self.child_conn = child_conn
        child_conn.env = self

    def start(self):
        pass

    def step(self, action):
        s = np.random.randint(0, 255, size=(4, 84, 84)).astype(np.float32)
        r, d, rd, lr = 0.0, False, False, 0.0
        return s, r, d, rd, lr
