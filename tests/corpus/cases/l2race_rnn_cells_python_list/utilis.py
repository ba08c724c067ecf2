# -*- coding: utf-8 -*-
"""
Created on Fri Jun 19 08:28:34 2020

@author: Marcin
"""

import numpy as np
import torch
import torch.nn as nn
from torch.utils import data


def get_device():
    """
    Small function to correctly send data to GPU or CPU depending what is available
    """
    if torch.cuda.is_available():
        device = torch.device('cuda:0')
    else:
        device = torch.device('cpu')
    return device


# Initialize weights and biases - should be only applied if no pretrained net loaded
def initialize_weights_and_biases(net):
    for name, param in net.named_parameters():
        if 'gru' in name:
            if 'weight' in name:
                nn.init.orthogonal_(param)
        if 'linear' in name:
            if 'weight' in name:
                nn.init.orthogonal_(param)
        if 'bias' in name:  # all biases
            nn.init.constant_(param, 0)


class Sequence(nn.Module):
    """"
    Our RNN class.
    """
    commands_list = ['dt', 'cmd.auto', 'cmd.steering', 'cmd.throttle', 'cmd.brake', 'cmd.reverse'] # Repeat to accept names also without 'cmd.'
    state_variables_list = ['time', 'pos.x', 'pos.y', 'vel.x', 'vel.y', 'speed', 'accel.x', 'accel.y', 'steering_angle', 'body_angle', 'yaw_rate', 'drift_angle']

    def __init__(self, rnn_name, inputs_list, outputs_list):
        super(Sequence, self).__init__()
        """Initialization of an RNN instance
        We assume that inputs may be both commands and state variables, whereas outputs are always state variables
        """

        self.command_inputs = []
        self.states_inputs = []
        for rnn_input in inputs_list:
            if rnn_input in Sequence.commands_list:
                self.command_inputs.append(rnn_input)
            elif rnn_input in Sequence.state_variables_list:
                self.states_inputs.append(rnn_input)
            else:
                s = 'A requested input {} to RNN is neither a command nor a state variable of l2race car model'\
                    .format(rnn_input)
                raise ValueError(s)

        # Check if requested outputs are fine
        for rnn_output in outputs_list:
            if (rnn_output not in Sequence.state_variables_list) and (rnn_output not in Sequence.commands_list):
                s = 'A requested output {} of RNN is neither a command nor a state variable of l2race car model'\
                    .format(rnn_output)
                raise ValueError(s)


        # Check if GPU is available. If yes device='cuda:0' if not device='cpu'
        self.device = get_device()

        # Get the information about network architecture from the network name
        # Split the names into "LSTM/GRU", "128H1", "64H2" etc.
        names = rnn_name.split('-')
        layers = ['H1', 'H2', 'H3', 'H4', 'H5']
        self.h_size = []  # Hidden layers sizes
        for name in names:
            for index, layer in enumerate(layers):
                if layer in name:
                    # assign the variable with name obtained from list layers.
                    self.h_size.append(int(name[:-2]))

        if not self.h_size:
            raise ValueError('You have to provide the size of at least one hidden layer in rnn name')

        if 'GRU' in names:
            self.rnn_type = 'GRU'
        elif 'LSTM' in names:
            self.rnn_type = 'LSTM'
        else:
            self.rnn_type = 'RNN-Basic'

        # Construct network

        if self.rnn_type == 'GRU':
            self.rnn_cell = [nn.GRUCell(len(inputs_list), self.h_size[0])]
            for i in range(len(self.h_size)-1):
                self.rnn_cell.append(nn.GRUCell(self.h_size[i], self.h_size[i+1]))
        elif self.rnn_type == 'LSTM':
            self.rnn_cell = [nn.LSTMCell(len(inputs_list), self.h_size[0])]
            for i in range(len(self.h_size)-1):
                self.rnn_cell.append(nn.LSTMCell(self.h_size[i], self.h_size[i+1]))
        else:
            self.rnn_cell = [nn.RNNCell(len(inputs_list), self.h_size[0])]
            for i in range(len(self.h_size)-1):
                self.rnn_cell.append(nn.RNNCell(self.h_size[i], self.h_size[i+1]))


        self.linear = nn.Linear(self.h_size[-1], len(outputs_list))  # RNN out


        # Count data samples (=time steps)
        self.sample_counter = 0
        # Declaration of the variables keeping internal state of GRU hidden layers
        self.h = [None]*len(self.h_size)
        self.c = [None]*len(self.h_size) # Internal state cell - only matters for LSTM
        # Variable keeping the most recent output of RNN
        self.output = None
        # List storing the history of RNN outputs
        self.outputs = []

        # Send the whole RNN to GPU if available, otherwise send it to CPU
        self.to(self.device)

        print('Constructed a neural network of type {}, with {} hidden layers with sizes {} respectively.'
              .format(self.rnn_type, len(self.h_size), ', '.join(map(str, self.h_size))))
        print('The inputs are (in this order):')
        print('Input state variables: {}'.format(', '.join(map(str, self.states_inputs))))
        print('Input commands: {}'.format(', '.join(map(str, self.command_inputs))))
        print('The outputs are (in this order): {}'.format(', '.join(map(str, outputs_list))))


    def forward(self, predict_len: int, rnn_input_commands, terminate=False, real_time=False):
        """
        Predicts future CartPole states IN "CLOSED LOOP"
        (at every time step prediction for the next time step is done based on CartPole state
        resulting from the previous prediction; only control input is provided from the ground truth at every step)
        """

        # For number of time steps given in predict_len predict the state of the CartPole
        # At every time step RNN get as its input the ground truth value of control input
        # BUT instead of the ground truth value of CartPole state
        # it gets the result of the prediction for the last time step
        for iteration in range(predict_len):

            # Concatenate the previous prediction and current control input to the input to RNN for a new time step
            if real_time:
                input_t = torch.cat((self.output, rnn_input_commands.squeeze(0)), 1)
            else:
                input_t = torch.cat((self.output, rnn_input_commands[self.sample_counter, :]), 1)

            # Propagate input through RNN layers

            if self.rnn_type == 'LSTM':
                self.h[0], self.c[0] = self.rnn_cell[0](input_t, (self.h[0], self.c[0]))
                for i in range(len(self.h_size) - 1):
                    self.h[i+1], self.c[i+1] = self.rnn_cell[i+1](self.h[i], (self.h[i+1], self.c[i+1]))
            else:
                self.h[0] = self.rnn_cell[0](input_t, self.h[0])
                for i in range(len(self.h_size) - 1):
                    self.h[i+1] = self.rnn_cell[i+1](self.h[i], self.h[i + 1])


            self.output = self.linear(self.h[-1])

            # Append the output to the outputs history list
            self.outputs += [self.output]
            # Count number of samples
            self.sample_counter = self.sample_counter + 1

        # if terminate=True transform outputs history list to a Pytorch tensor and return it
        # Otherwise store the outputs internally as a list in the RNN instance
        if terminate:
            self.outputs = torch.stack(self.outputs, 1)
            return self.outputs
        else:
            return self.output

    def reset(self):
        """
        Reset the network (not the weights!)
        """
        self.sample_counter = 0
        self.h = [None]*len(self.h_size)
        self.c = [None] * len(self.h_size)
        self.output = None
        self.outputs = []

    def initialize_sequence(self, rnn_input, warm_up_len=256, stack_output=True, all_input=False):

        """
        Predicts future CartPole states IN "OPEN LOOP"
        (at every time step prediction for the next time step is done based on the true CartPole state)
        """

        # If in training mode we will only run this function during the first several (warm_up_len) data samples
        # Otherwise we run it for the whole input
        if not all_input:
            starting_input = rnn_input[:warm_up_len, :, :]
        else:
            starting_input = rnn_input

        # Initialize hidden layers - this change at every call as the batch size may vary
        for i in range(len(self.h_size)):
            self.h[i] = torch.zeros(starting_input.size(1), self.h_size[i], dtype=torch.float).to(self.device)
            self.c[i] = torch.zeros(starting_input.size(1), self.h_size[i], dtype=torch.float).to(self.device)

        # The for loop takes the consecutive time steps from input plugs them into RNN and save the outputs into a list
        # THE NETWORK GETS ALWAYS THE GROUND TRUTH, THE REAL STATE OF THE CARTPOLE, AS ITS INPUT
        # IT PREDICTS THE STATE OF THE CARTPOLE ONE TIME STEP AHEAD BASED ON TRUE STATE NOW
        for iteration, input_t in enumerate(starting_input.chunk(starting_input.size(0), dim=0)):

            # Propagate input through RNN layers
            if self.rnn_type == 'LSTM':
                self.h[0], self.c[0] = self.rnn_cell[0](input_t.squeeze(0), (self.h[0], self.c[0]))
                for i in range(len(self.h_size) - 1):
                    self.h[i + 1], self.c[i + 1] = self.rnn_cell[i + 1](self.h[i], (self.h[i + 1], self.c[i + 1]))
            else:
                self.h[0] = self.rnn_cell[0](input_t.squeeze(0), self.h[0])
                for i in range(len(self.h_size) - 1):
                    self.h[i+1] = self.rnn_cell[i+1](self.h[i], self.h[i + 1])
            self.output = self.linear(self.h[-1])

            self.outputs += [self.output]
            self.sample_counter = self.sample_counter + 1

        # In the train mode we want to continue appending the outputs by calling forward function
        # The outputs will be saved internally in the network instance as a list
        # Otherwise we want to transform outputs list to a tensor and return it
        if stack_output:
            outputs_return = torch.stack(self.outputs, 1)
            return outputs_return
        else:
            return self.output


class Dataset(data.Dataset):
    def __init__(self, data, labels, args):
        'Initialization'
        self.data = data
        self.labels = labels
        self.args = args

        # Hyperparameters
        self.seq_len = args.seq_len  # Sequence length

    def __len__(self):
        'Total number of samples'
        return self.data.shape[0] - self.seq_len

    def __getitem__(self, idx):
        return self.data[idx:idx + self.seq_len, :], self.labels[idx:idx + self.seq_len]
