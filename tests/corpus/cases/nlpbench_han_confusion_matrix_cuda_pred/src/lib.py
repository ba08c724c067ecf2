import logging


def get_logger(logdir=None, logname="logger"):
    logging.basicConfig(level=logging.INFO, format='%(asctime)s %(message)s')
    return logging.getLogger(logname)
