# From ../shared/seeds/004_7824067b18f9ca0f.txt, example 4 (code as published; the post's comments may be wrong).
def recursive_to_device(data, device):
  if isinstance(data, torch.Tensor):
      return data.to(device)
  elif isinstance(data, list):
      return [recursive_to_device(item, device) for item in data]
  elif isinstance(data, dict):
      return {key: recursive_to_device(value, device) for key, value in data.items()}
  else:
      return data

# Within the training loop one can utilise the utility
training_data = [torch.randn(10,10), torch.randn(10,10)]
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
training_data = recursive_to_device(training_data, device)
