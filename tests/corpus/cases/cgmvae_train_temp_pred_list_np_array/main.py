import argparse
from train import train


parser = argparse.ArgumentParser()
parser.add_argument('-dataset', "--dataset", default='mirflickr', type=str, help='dataset name')
parser.add_argument('-dd', "--data_dir", default='./data/mirflickr/mirflickr_data.npy', type=str, help='The path of input observation data')
parser.add_argument('-train_idx', "--train_idx", default='./data/mirflickr/mirflickr_train_idx.npy', type=str, help='The path of training data index')
parser.add_argument('-valid_idx', "--valid_idx", default='./data/mirflickr/mirflickr_val_idx.npy', type=str, help='The path of validation data index')

parser.add_argument('-bs', "--batch_size", default=128, type=int, help='the number of data points in one minibatch')
parser.add_argument('-lr', "--learning_rate", default=1e-3, type=float, help='initial learning rate')
parser.add_argument('-epoch', "--max_epoch", default=200, type=int, help='max epoch to train')
parser.add_argument('-seed', "--seed", default=1, type=int, help='seed')
parser.add_argument('-label_dim', "--label_dim", default=38, type=int, help='the number of labels in current training')
parser.add_argument('-latent_dim', "--latent_dim", default=64, type=int, help='the dimension of the latent space')
parser.add_argument('-meta_offset', "--meta_offset", default=0, type=int, help='the offset caused by meta data')
parser.add_argument('-feat_dim', "--feature_dim", default=15, type=int, help='the dimensionality of the features')
parser.add_argument('-se', "--save_epoch", default=1, type=int, help='epochs to save the checkpoint of the model')
parser.add_argument('-check_freq', "--check_freq", default=120, type=int, help='checking frequency')
parser.add_argument('-emb_size', "--emb_size", default=512, type=int, help='emb size')
parser.add_argument('-nll_coeff', "--nll_coeff", default=0.1, type=float, help='nll_loss coefficient')
parser.add_argument('-c_coeff', "--c_coeff", default=200., type=float, help='c_loss coefficient')
parser.add_argument('-mode', "--mode", type=str, help='training/test mode')

args = parser.parse_args()

if __name__ == "__main__":
    if args.mode == 'train':
        train(args)
    else:
        raise ValueError("mode %s is not supported." % args.mode)
