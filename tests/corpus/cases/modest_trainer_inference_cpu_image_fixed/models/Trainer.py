import os
import torch
import matplotlib.pyplot as plt
import numpy as np
import wandb
import cv2
import torch.nn.functional as F

from torchvision import transforms
from PIL import Image
from tqdm import tqdm
from numpy.core.numeric import Inf
from models.Model import ISGNet
from utils.builder import get_losses, get_optimizer, get_schedulers, create_dir
from utils.loss import get_surface_normal
from utils.visualize import *
from utils.evaluate import compute_depth_metrics, compute_seg_metrics



class Trainer(object):

    def __init__(self, config):
        super().__init__()
        self.config = config
        ## type of predictions (full/seg/depth)
        self.type = config['Model']['type']
        ## choose the dataset (Syntodd or Clearpose)
        self.dataset_name = config["Dataset"]["dataset_name"]
        ## the number of semantic categories
        self.num_classes = len(config['Dataset'][self.dataset_name]['classes'])
        ## loss weights
        self.seg_multi = config['Trainer']['seg_multi']
        self.depth_multi = config['Trainer']['depth_multi']
        self.depth_scale_multi = config['Trainer']['depth_scale_multi']
        self.depth_grad_multi = config['Trainer']['depth_grad_multi']
        self.depth_normal_multi = config['Trainer']['depth_normal_multi']
        self.depth_error_multi = config['Trainer']['depth_error_multi']
        ## coefficient between different iterations
        self.gamma = config['Trainer']['gamma']
        ## resolution of multi-scale predictions
        self.resolutions = [48, 96, 192, 384]
        self.device = torch.device(config['Model']['device'] if torch.cuda.is_available() else "cpu")
        print("device: %s" % self.device)
        im_resize = config['Dataset'][self.dataset_name]['transforms']['im_resize']
        ## define the model
        self.model = ISGNet(
                    image_size  =   (3,im_resize,im_resize),
                    emb_dim     =   config['Model']['emb_dim'],
                    resample_dim=   config['Model']['resample_dim'],
                    read        =   config['Model']['read'],
                    nclasses    =   self.num_classes,
                    hooks       =   config['Model']['hooks'],
                    model_timm  =   config['Model']['model_timm'],
                    type        =   self.type,
                    patch_size  =   config['Model']['patch_size'],
                    pretrain    =   config['Model']['pretrain'],
                    iterations  =   config['Model']['iterations'],
                    in_chans    =   config['Dataset'][self.dataset_name]["in_chans"]
        )

        self.model.to(self.device)
        # print(self.model)

        ## loss functions
        self.loss_depth, self.loss_depth_grad, self.loss_depth_normal, self.loss_seg, self.loss_seg_iou = get_losses(config)
        self.optimizer_backbone, self.optimizer_scratch = get_optimizer(config, self.model)
        self.schedulers = get_schedulers([self.optimizer_backbone, self.optimizer_scratch])

        self.ckpt_path = config['Trainer']['ckpt_path']
        self.path_model = os.path.join('ckpt/' + self.config['Model']['path_model'], self.model.__class__.__name__)
        self.path_statis = os.path.join('ckpt/' + self.config['Model']['path_model'], 'val_statis.txt')
        create_dir(self.path_model)

    # (train, run_eval, test, save_model, img_logger and isnan are left out: they do not take part in the bug)

    ############################ inference ################################
    def inference(self, image_path):
        ## load model weights
        checkpoint = torch.load(self.ckpt_path)
        self.model.load_state_dict(checkpoint['model_state_dict'])
        print("load ckpt successfully")
        self.model.eval()

        image = Image.open(image_path)
        transform = transforms.Compose([
            transforms.Resize((384, 384)),
            transforms.ToTensor(),  
            transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])  
        ])
        image = transform(image)
        image = image.unsqueeze(0).to(self.device)


        with torch.no_grad():
            output_depth, output_seg = self.model(image)
            depth_visual = vis_depth(output_depth[-1][-1].squeeze(0).squeeze(0))
            seg_visual = vis_seg(output_seg[-1][-1].squeeze(0), image.squeeze(0).permute(1, 2, 0).cpu(), 'syntodd')
            depth_image = Image.fromarray(depth_visual)
            seg_image = Image.fromarray(seg_visual)
            depth_image.save('results/depth.png')
            seg_image.save('results/seg.png')
