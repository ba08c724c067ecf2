num_classes = 10

model = dict(
    type='Recognizer2D',
    backbone=dict(type='ResNet', depth=50),
    cls_head=dict(
        type='TSNHead',
        num_classes=num_classes,
        in_channels=64,
        dropout_ratio=0.4,
        # rare classes weighted up
        loss_cls=dict(type='CrossEntropyLoss',
                      class_weight=[1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 8.0])),
    train_cfg=dict(blending=dict(type='MixupBlending', num_classes=num_classes, alpha=.2)),
    test_cfg=dict(average_clips=None))

data = dict(videos_per_gpu=8, num_segments=3, img_size=64)
optimizer = dict(lr=0.01, momentum=0.9, weight_decay=0.0001)
total_epochs = 2
