# "How to use GPFM as feature extractor" from the README (usage snippet as a script)
from models import get_model, get_custom_transformer
from PIL import Image

model = get_model('GPFM', 0, 1)
transformer = get_custom_transformer('GPFM')
img = Image.open('img/path') # we prefer image with size of 512*512 (extracted from 40X)
img = transformer(img)
img = img[None] # to 4D tensor
img = img.cuda() # load images into gpu
feat = model(img) # [N, 1024]
print(feat.shape)
