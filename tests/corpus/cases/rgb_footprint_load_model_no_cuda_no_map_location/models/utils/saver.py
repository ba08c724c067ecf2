import os
import torch


class Saver(object):

    def __init__(self, args):
        self.args = args
        self.directory = os.path.join('run', args.dataset, args.checkname)
        self.save_directory = os.path.join('weights', args.checkname)

        if not os.path.exists(self.directory):
            os.makedirs(self.directory)

        if not os.path.exists(self.save_directory):
            os.makedirs(self.save_directory)

        self.best_loss = float('inf')
        self.best_miou = float('-inf')

    def save_checkpoint(self, state, val_loss, val_miou, filename='checkpoint.pth.tar'):
        """Saves checkpoint to disk"""
        if val_loss < self.best_loss:
            print("Saving best loss checkpoint")
            self.best_loss = val_loss
            torch.save(state, os.path.join(self.save_directory, 'best_loss_{}'.format(filename)))

        if val_miou > self.best_miou:
            print("Saving best mIOU checkpoint")
            self.best_miou = val_miou
            torch.save(state, os.path.join(self.save_directory, 'best_miou_{}'.format(filename)))
