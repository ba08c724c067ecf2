import torch
import torch.optim as optim

# the project's src/__init__.py: every module imports this device
device = 'cuda' if torch.cuda.is_available() else 'cpu'


# OElli - oriented (non-axis-aligned) ellipsoid baseline
def generate_ellipsoid_params(dimensions, centre=0.5, radius=0.3):
    # centre coordinates and axis lengths of the starting ellipsoid
    centre_coords = torch.full((dimensions,), centre, dtype=torch.float32, device=device)
    axis_lengths = torch.full((dimensions,), radius, dtype=torch.float32, device=device)

    # [x_center, y_center, z_center, a, b, c]
    ellipsoid_params = torch.cat((centre_coords, axis_lengths))
    ellipsoid_params.requires_grad = True
    return ellipsoid_params


def distance_to_ellipsoid(points, ellipsoid_params, dim):
    center, axis_lengths = ellipsoid_params[:dim], ellipsoid_params[dim:]
    normed_diff = (points - center) / axis_lengths
    return torch.norm(normed_diff, dim=1) - 1


def loss_fn(points, ellipsoid_params, dim):
    distances = distance_to_ellipsoid(points, ellipsoid_params, dim)
    return torch.sum(torch.relu(distances))


def is_inside_ellipsoid(points, params, dim):
    center, axis_lengths = params[:dim], params[dim:]
    normed_diff = (points - center) / axis_lengths
    distance_from_surface = torch.norm(normed_diff, dim=1) - 1

    is_inside_or_on = distance_from_surface <= 1e-3
    num_inside_or_on = torch.sum(is_inside_or_on).item()
    num_outside = len(is_inside_or_on) - num_inside_or_on
    return num_inside_or_on, num_outside


def calculate_OElli(gt_negative, gt_positive, metrics_registry, dim):
    covariance = torch.cov(gt_positive.T)
    eigen_values, eigen_vectors = torch.linalg.eig(covariance)
    eigen_values = eigen_values.real
    eigen_vectors = eigen_vectors.real

    gt_positive_transformed = gt_positive @ eigen_vectors
    gt_negative_transformed = gt_negative @ eigen_vectors

    ellipsoid_params = generate_ellipsoid_params(dimensions=dim)
    optimizer = optim.Adam([ellipsoid_params], lr=0.001)

    for i in range(300):
        optimizer.zero_grad()
        loss = loss_fn(gt_positive_transformed, ellipsoid_params, dim)
        loss.backward()
        optimizer.step()

        if i % 100 == 0:
            print(f"Iteration {i}, Loss {loss.item()}")
        if loss == 0.:
            break

    false_positives, true_negative = is_inside_ellipsoid(gt_negative_transformed, ellipsoid_params, dim)
    true_positive, false_negatives = is_inside_ellipsoid(gt_positive_transformed, ellipsoid_params, dim)

    metrics_registry["OElli"] = {
        "false negatives": false_negatives,
        "false positives": false_positives,
        "true values": true_negative + true_positive,
    }


# stand-ins for src/wiring.get_training_data (point queries) and
# src/baselines/helper.extract_ground_truth_classes
def get_training_data(n_regions, dimension):
    features = torch.rand([n_regions, dimension]).to(device)
    centre = torch.full((dimension,), 0.5, device=device)
    targets = (torch.norm(features - centre, dim=1, keepdim=True) < 0.3).float().to(device)
    return features, targets


def extract_ground_truth_classes(features, targets):
    targets = targets.squeeze(dim=-1)
    return {"gt_positive": features[targets == 1], "gt_negative": features[targets == 0]}


if __name__ == "__main__":
    dimension = 3
    features, targets = get_training_data(n_regions=5000, dimension=dimension)
    result = extract_ground_truth_classes(features, targets)
    metrics = {}
    calculate_OElli(gt_negative=result["gt_negative"], gt_positive=result["gt_positive"],
                    metrics_registry=metrics, dim=dimension)
    print(metrics["OElli"])
