# ChatBot.ipynb of Fast-Pytorch (Learning_Pytorch), its code cells as one script: the Colab/Drive
# set-up, the Cornell corpus parsing and the interactive chat are left out (a few sentence pairs stand
# for the formatted movie lines).
import itertools
import os
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

CUDA = torch.cuda.is_available()
print("CUDA:", CUDA)
device = torch.device("cuda" if CUDA else "cpu")

PAD_token = 0
SOS_token = 1
EOS_token = 2
MAX_LENGTH = 10


class Vocabulary:
  def __init__(self, name):
    self.name = name
    self.word2index = {}
    self.word2count = {}
    self.index2word = {PAD_token: "PAD", SOS_token: "SOS", EOS_token: "EOS"}
    self.num_words = 3

  def addSentence(self, sentence):
    for word in sentence.split(' '):
      self.addWord(word)

  def addWord(self, word):
    if word not in self.word2index:
      self.word2index[word] = self.num_words
      self.word2count[word] = 1
      self.index2word[self.num_words] = word
      self.num_words += 1
    else:
      self.word2count[word] += 1


pairs = [["hi there .", "hello ."], ["how are you ?", "fine thanks ."], ["what is your name ?", "cameron ."],
         ["where are you going ?", "home ."], ["can we make this quick ?", "sure ."], ["good night .", "bye ."]]
voc = Vocabulary("cornell movie-dialogs corpus")
for pair in pairs:
  voc.addSentence(pair[0])
  voc.addSentence(pair[1])


def indexesFromSentence(voc, sentence):
  return [voc.word2index[word] for word in sentence.split(' ')] + [EOS_token]
def zeroPadding(l, fillvalue=0):
  return list(itertools.zip_longest(*l, fillvalue=fillvalue))
def binaryMatrix(l, value=0):
  m=[]
  for i, seq in enumerate(l):
    m.append([])
    for token in seq:
      if token == PAD_token:
        m[i].append(0)
      else:
        m[i].append(1)
  return m
def inputVar(l, voc):
  indexes_batch= [indexesFromSentence(voc, sentence) for sentence in l]
  lengths= torch.tensor([len(indexes) for indexes in indexes_batch])
  padList= zeroPadding(indexes_batch)
  padVar= torch.LongTensor(padList)
  return padVar, lengths
def outputVar(l, voc):
  indexes_batch= [indexesFromSentence(voc, sentence) for sentence in l]
  max_target_len= max([len(indexes) for indexes in indexes_batch])
  padList= zeroPadding(indexes_batch)
  mask= binaryMatrix(padList)
  mask= torch.ByteTensor(mask)
  padVar= torch.LongTensor(padList)
  return padVar, mask, max_target_len
def batch2TrainData(voc, pair_batch):
  pair_batch.sort(key=lambda x:len(x[0].split(" ")), reverse=True)
  input_batch, output_batch = [], []
  for pair in pair_batch:
    input_batch.append(pair[0])
    output_batch.append(pair[1])
  inp, lengths=inputVar(input_batch, voc)
  output, mask, max_target_len = outputVar(output_batch, voc)
  return inp, lengths, output, mask, max_target_len
class EncoderRNN(nn.Module):
  
  def __init__(self,hidden_size,embedding, n_layers=1, dropout=0):
    super(EncoderRNN,self).__init__()
    self.n_layers=n_layers
    self.hidden_size=hidden_size
    self.embedding=embedding
    self.gru=nn.GRU(hidden_size, hidden_size, n_layers, dropout=(0 if n_layers == 1 else dropout), bidirectional=True)
  
  def forward(self, input_seq, input_lengths, hidden=None):
    embedded=self.embedding(input_seq)
    
    packed= torch.nn.utils.rnn.pack_padded_sequence(embedded, input_lengths)
    outputs, hidden = self.gru(packed, hidden)
    
    outputs, _ = torch.nn.utils.rnn.pad_packed_sequence(outputs)
    
    outputs=outputs[:, :, :self.hidden_size] + outputs[:, :, self.hidden_size:]
    
    return outputs, hidden
class Attn(torch.nn.Module):
  def __init__(self, method, hidden_size):
    super(Attn, self).__init__()
    self.method = method
    self.hidden_size = hidden_size
  
  def dot_score(self, hidden, encoder_output):
    return torch.sum(hidden * encoder_output, dim=2)
  
  def forward(self, hidden, encoder_outputs):
    attn_energies = self.dot_score(hidden, encoder_outputs) # (max_length, batch_size)
    # Transpose max_length and batch_size dims
    attn_energies = attn_energies.t() # (batch_size, max_length)
    # return the softmax normalized probability scores
    return F.softmax(attn_energies, dim=1).unsqueeze(1) # (batch_size, 1, max_length)
class LuongAttnDecoderRNN(nn.Module):
  def __init__(self, attn_model, embedding, hidden_size, output_size, n_layers=1, dropout=0.1):
    super(LuongAttnDecoderRNN, self).__init__()
    self.attn_model= attn_model
    self.hidden_size= hidden_size
    self.output_size= output_size
    self.n_layers = n_layers
    self.dropout = dropout
    
    self.embedding=embedding
    self.embedding_dropout = nn.Dropout(dropout)
    self.gru= nn.GRU(hidden_size, hidden_size, n_layers, dropout=(0 if n_layers ==1 else dropout))
    self.concat= nn.Linear(hidden_size *2, hidden_size)
    self.out = nn.Linear(hidden_size, output_size)
    
    self.attn= Attn(attn_model, hidden_size)
    
  def forward(self, input_step, last_hidden, encoder_outputs):
    
    embedded = self.embedding(input_step)
    embedded = self.embedding_dropout(embedded)
    
    rnn_output, hidden = self.gru(embedded, last_hidden)
    
    attn_weights = self.attn(rnn_output, encoder_outputs)
    
    context= attn_weights.bmm(encoder_outputs.transpose(0,1))
    
    rnn_output = rnn_output.squeeze(0)
    context = context.squeeze(1)
    concat_input = torch.cat((rnn_output, context),1)
    concat_output = torch.tanh(self.concat(concat_input))
    
    output= self.out(concat_output)
    output= F.softmax(output, dim=1)
    
    return output, hidden
def maskNLLLoss(decoder_out, target, mask):
  nTotal = mask.sum()
  target = target.view(-1,1)
  
  gathered_tensor = torch.gather(decoder_out, 1, target)
  crossEntropy= -torch.log(gathered_tensor)
  
  loss=crossEntropy.masked_select(mask)
  
  loss= loss.mean()
  loss= loss.to(device)
  
  return loss, nTotal.item()
def train(input_variable, lengths, target_variable, mask, max_target_len, encoder, decoder, embedding,
          encoder_optimizer, decoder_optimizer, batch_size, clip, max_length=MAX_LENGTH):

    # Zero gradients
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()

    # Set device options
    input_variable = input_variable.to(device)
    lengths = lengths.to(device)
    target_variable = target_variable.to(device)
    mask = mask.to(device)

    # Initialize variables
    loss = 0
    print_losses = []
    n_totals = 0

    # Forward pass through encoder
    encoder_outputs, encoder_hidden = encoder(input_variable, lengths)

    # Create initial decoder input (start with SOS tokens for each sentence)
    decoder_input = torch.LongTensor([[SOS_token for _ in range(batch_size)]])
    decoder_input = decoder_input.to(device)

    # Set initial decoder hidden state to the encoder's final hidden state
    decoder_hidden = encoder_hidden[:decoder.n_layers]

    # Determine if we are using teacher forcing this iteration
    use_teacher_forcing = True if random.random() < teacher_forcing_ratio else False

    # Forward batch of sequences through decoder one time step at a time
    if use_teacher_forcing:
        for t in range(max_target_len):
            decoder_output, decoder_hidden = decoder(
                decoder_input, decoder_hidden, encoder_outputs
            )
            # Teacher forcing: next input is current target
            decoder_input = target_variable[t].view(1, -1)
            # Calculate and accumulate loss
            mask_loss, nTotal = maskNLLLoss(decoder_output, target_variable[t], mask[t])
            loss += mask_loss
            print_losses.append(mask_loss.item() * nTotal)
            n_totals += nTotal
    else:
        for t in range(max_target_len):
            decoder_output, decoder_hidden = decoder(
                decoder_input, decoder_hidden, encoder_outputs
            )
            # No teacher forcing: next input is decoder's own current output
            _, topi = decoder_output.topk(1)
            decoder_input = torch.LongTensor([[topi[i][0] for i in range(batch_size)]])
            decoder_input = decoder_input.to(device)
            # Calculate and accumulate loss
            mask_loss, nTotal = maskNLLLoss(decoder_output, target_variable[t], mask[t])
            loss += mask_loss
            print_losses.append(mask_loss.item() * nTotal)
            n_totals += nTotal

    # Perform backpropatation
    loss.backward()

    # Clip gradients: gradients are modified in place
    _ = torch.nn.utils.clip_grad_norm_(encoder.parameters(), clip)
    _ = torch.nn.utils.clip_grad_norm_(decoder.parameters(), clip)

    # Adjust model weights
    encoder_optimizer.step()
    decoder_optimizer.step()

    return sum(print_losses) / n_totals
def trainIters(model_name, voc, pairs, encoder, decoder, encoder_optimizer, decoder_optimizer, embedding, encoder_n_layers, decoder_n_layers, save_dir, n_iteration, batch_size, print_every, save_every, clip, corpus_name, loadFilename):

    # Load batches for each iteration
    training_batches = [batch2TrainData(voc, [random.choice(pairs) for _ in range(batch_size)])
                      for _ in range(n_iteration)]

    # Initializations
    print('Initializing ...')
    start_iteration = 1
    print_loss = 0
    if loadFilename:
        start_iteration = checkpoint['iteration'] + 1

    # Training loop
    print("Training...")
    for iteration in range(start_iteration, n_iteration + 1):
        training_batch = training_batches[iteration - 1]
        # Extract fields from batch
        input_variable, lengths, target_variable, mask, max_target_len = training_batch

        # Run a training iteration with batch
        loss = train(input_variable, lengths, target_variable, mask, max_target_len, encoder,
                     decoder, embedding, encoder_optimizer, decoder_optimizer, batch_size, clip)
        print_loss += loss

        # Print progress
        if iteration % print_every == 0:
            print_loss_avg = print_loss / print_every
            print("Iteration: {}; Percent complete: {:.1f}%; Average loss: {:.4f}".format(iteration, iteration / n_iteration * 100, print_loss_avg))
            print_loss = 0

        # Save checkpoint
        if (iteration % save_every == 0):
            directory = os.path.join(save_dir, model_name, corpus_name, '{}-{}_{}'.format(encoder_n_layers, decoder_n_layers, hidden_size))
            if not os.path.exists(directory):
                os.makedirs(directory)
            torch.save({
                'iteration': iteration,
                'en': encoder.state_dict(),
                'de': decoder.state_dict(),
                'en_opt': encoder_optimizer.state_dict(),
                'de_opt': decoder_optimizer.state_dict(),
                'loss': loss,
                'voc_dict': voc.__dict__,
                'embedding': embedding.state_dict()
            }, os.path.join(directory, '{}_{}.tar'.format(iteration, 'checkpoint')))
model_name = 'cb_model'
save_dir = os.path.join("data", "save")
corpus_name = "cornell movie-dialogs corpus"
loadFilename = None
hidden_size = 500
encoder_n_layers = 2
decoder_n_layers = 2
dropout = 0.1
attn_model = 'dot'
batch_size = 4

print('Building encoder and decoder ...')
# Initialize word embeddings
embedding = nn.Embedding(voc.num_words, hidden_size)
# Initialize encoder & decoder models
encoder = EncoderRNN(hidden_size, embedding, encoder_n_layers, dropout)
decoder = LuongAttnDecoderRNN(attn_model, embedding, hidden_size, voc.num_words, decoder_n_layers, dropout)
# Use appropriate device
encoder = encoder.to(device)
decoder = decoder.to(device)
print('Models built and ready to go!')

# Configure training/optimization
clip = 50.0
teacher_forcing_ratio = 1.0
learning_rate = 0.0001
decoder_learning_ratio = 5.0
n_iteration = 4
print_every = 1
save_every = 500

# Ensure dropout layers are in train mode
encoder.train()
decoder.train()

# Initialize optimizers
print('Building optimizers ...')
encoder_optimizer = optim.Adam(encoder.parameters(), lr=learning_rate)
decoder_optimizer = optim.Adam(decoder.parameters(), lr=learning_rate * decoder_learning_ratio)

# Run training iterations
print("Starting Training!")
trainIters(model_name, voc, pairs, encoder, decoder, encoder_optimizer, decoder_optimizer,
           embedding, encoder_n_layers, decoder_n_layers, save_dir, n_iteration, batch_size,
           print_every, save_every, clip, corpus_name, loadFilename)
