import math

import numpy as np
import torch
import torch.nn.functional as F


def look(vertices, eye, direction=None, up=None):
    """
    "Look at" transformation of vertices.
    """
    assert (vertices.ndimension() == 3)
    device = vertices.device

    if direction is None:
        direction = torch.from_numpy(np.array([0, 1, 0], np.float32)).to(device)
    elif isinstance(direction, list) or isinstance(direction, tuple):
        direction = torch.from_numpy(np.array(direction, np.float32)).to(device)
    elif isinstance(direction, np.ndarray):
        direction = torch.from_numpy(direction).to(device)
    else:
        direction = direction.to(device)

    if up is None:
        up = torch.from_numpy(np.array([0, 1, 0], np.float32)).to(device)

    if isinstance(eye, list) or isinstance(eye, tuple):
        eye = torch.from_numpy(np.array(eye, np.float32)).to(device)
    # if numpy array convert to tensor
    elif isinstance(eye, np.ndarray):
        eye = torch.from_numpy(eye).to(device)
    else:
        eye = eye.to(device)
    if eye.ndimension() == 1:
        eye = eye[None, :]
    if direction.ndimension() == 1:
        direction = direction[None, :]
    if up.ndimension() == 1:
        up = up[None, :]

    # create new axes
    z_axis = F.normalize(direction, eps=1e-5)
    x_axis = F.normalize(torch.cross(up, z_axis, dim=-1), eps=1e-5)
    y_axis = F.normalize(torch.cross(z_axis, x_axis, dim=-1), eps=1e-5)

    # create rotation matrix: [bs, 3, 3]
    r = torch.cat((x_axis[:, None, :], y_axis[:, None, :], z_axis[:, None, :]), dim=1)

    # apply
    # [bs, nv, 3] -> [bs, nv, 3] -> [bs, nv, 3]
    if vertices.shape != eye.shape:
        eye = eye[:, None, :]
    vertices = vertices - eye
    vertices = torch.matmul(vertices, r.transpose(1,2))

    return vertices


# ---- neural_renderer/perspective.py ----
def perspective(vertices, angle=30.):
    '''
    Compute perspective distortion from a given angle
    '''
    assert (vertices.ndimension() == 3)
    device = vertices.device
    angle = torch.tensor(angle / 180 * math.pi, dtype=torch.float32, device=device)
    angle = angle[None]
    width = torch.tan(angle)
    width = width[:, None]
    z = vertices[:, :, 2]
    x = vertices[:, :, 0] / z / width
    y = vertices[:, :, 1] / z / width
    vertices = torch.stack((x,y,z), dim=2)
    return vertices


# ---- the user's script: Project a mesh with a "look" camera whose viewing direction is a tensor, and optimise the mesh so its projected silhouette points move towards targets (the user's use of nr.look; rasterisation left out). ----
def main():
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    vertices = (torch.rand(1, 64, 3) - 0.5).to(device).requires_grad_()
    targets = torch.zeros(1, 64, 2, device=device)
    eye = [0, 0, -(1. / math.tan(math.radians(30)) + 1)]
    camera_direction = torch.tensor([0., 0., 1.])

    optimizer = torch.optim.Adam([vertices], lr=0.01)
    for step in range(20):
        projected = look(vertices, eye, camera_direction)
        projected = perspective(projected, angle=30)
        loss = ((projected[:, :, :2] - targets) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(loss.item())


if __name__ == '__main__':
    main()
