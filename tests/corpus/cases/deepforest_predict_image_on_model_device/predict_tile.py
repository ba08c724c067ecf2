from deepforest import main

m = main.deepforest()
m.load_model(model_name="weecology/deepforest-tree", revision="main")
m.model.to("cuda")
boxes = m.predict_image(path="some_rgb.tif")
print(boxes.head())
