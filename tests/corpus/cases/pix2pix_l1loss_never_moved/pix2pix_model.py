import torch

import networks


class Pix2PixModel:
    def __init__(self, opt):
        self.opt = opt
        self.gpu_ids = opt.gpu_ids
        self.device = torch.device("cuda:{}".format(self.gpu_ids[0])) if self.gpu_ids else torch.device("cpu")
        self.netG = networks.define_G(opt.input_nc, opt.output_nc, opt.ngf, self.gpu_ids)
        self.netD = networks.define_D(opt.input_nc + opt.output_nc, opt.ndf, self.gpu_ids)
        # define loss functions
        self.criterionGAN = networks.GANLoss(opt.gan_mode).to(self.device)
        self.criterionL1 = torch.nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

    def set_input(self, input):
        self.real_A = input["A"].to(self.device)
        self.real_B = input["B"].to(self.device)

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1).detach())
        loss_D_fake = self.criterionGAN(pred_fake, False)
        pred_real = self.netD(torch.cat((self.real_A, self.real_B), 1))
        loss_D_real = self.criterionGAN(pred_real, True)
        ((loss_D_fake + loss_D_real) * 0.5).backward()

    def backward_G(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1))
        loss_G_GAN = self.criterionGAN(pred_fake, True)
        loss_G_L1 = self.criterionL1(self.fake_B, self.real_B) * self.opt.lambda_L1
        (loss_G_GAN + loss_G_L1).backward()

    def optimize_parameters(self):
        self.forward()
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()
