# MI-AOD on VOC with a RetinaNet-style detector (reduced to what the re-created training step reads)
model = dict(num_classes=20, in_channels=3, feat_channels=16, num_anchors=9)
data = dict(samples_per_gpu=2, workers_per_gpu=0, num_images=4)
optimizer = dict(lr=0.001)
epoch = 1
