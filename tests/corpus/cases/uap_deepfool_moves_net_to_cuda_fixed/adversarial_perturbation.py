import numpy as np
import deepfool
import torch


def project_perturbation(data_point, p, perturbation):
    if p == 2:
        perturbation = perturbation * min(1, data_point / np.linalg.norm(perturbation.flatten(1)))
    elif p == np.inf:
        perturbation = np.sign(perturbation) * np.minimum(abs(perturbation), data_point)
    return perturbation


def generate(accuracy, trainset, testset, net, delta=0.2, max_iter_uni=1, xi=10, p=np.inf,
             num_classes=10, overshoot=0.2, max_iter_df=20):
    net.eval()
    device = 'cpu'

    img_trn = []
    for image in trainset:
        for image2 in image[0]:
            img_trn.append(image2.numpy())

    num_img_trn = 4
    index_order = np.arange(num_img_trn)
    v = np.zeros([28, 28])
    fooling_rate = 0.0
    iter = 0

    while fooling_rate < 1 - delta and iter < max_iter_uni:
        np.random.shuffle(index_order)

        for index in index_order:
            v = v.reshape((v.shape[0], -1))

            # the original image, fed to the network
            cur_img = img_trn[index][0]
            cur_img1 = torch.from_numpy(cur_img).float()[np.newaxis, np.newaxis, :].to(device)
            r2 = (net(cur_img1).max(1)[1])
            torch.cuda.empty_cache()

            # the image with the current perturbation v
            per_img = cur_img + v.astype(np.float32)
            per_img1 = torch.from_numpy(per_img).float()[np.newaxis, np.newaxis, :].to(device)
            r1 = (net(per_img1).max(1)[1])
            torch.cuda.empty_cache()

            if r1 == r2:
                dr, iter_k, label, k_i, pert_image = deepfool.deepfool(
                    per_img1[0], net, num_classes=num_classes, overshoot=overshoot, max_iter=max_iter_df)
                if iter_k < max_iter_df - 1:
                    v[:, :] += dr[0, :, :]
                    v = project_perturbation(xi, p, v)

        iter = iter + 1
        v = v.reshape((v.shape[0], -1, 1))

        with torch.no_grad():
            labels_original_images = torch.tensor(np.zeros(0, dtype=np.int64))
            labels_pertubed_images = torch.tensor(np.zeros(0, dtype=np.int64))
            i = 0
            for batch_index, (inputs, _) in enumerate(testset):
                i += inputs.shape[0]
                inputs = inputs.to(device)
                outputs = net(inputs)
                _, predicted = outputs.max(1)
                labels_original_images = torch.cat((labels_original_images, predicted.cpu()))
            for batch_index, (inputs, labels) in enumerate(testset):
                inputs = inputs.to(device)
                inputs += torch.from_numpy(v.reshape(1, 28, 28)).float()
                outputs = net(inputs)
                _, predicted = outputs.max(1)
                labels_pertubed_images = torch.cat((labels_pertubed_images, predicted.cpu()))
            fooling_rate = float(torch.sum(labels_original_images != labels_pertubed_images)) / float(i)
    return v, fooling_rate
