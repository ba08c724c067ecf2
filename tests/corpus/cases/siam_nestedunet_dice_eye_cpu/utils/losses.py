from utils.metrics import FocalLoss, dice_loss


def hybrid_loss(predictions, target):
    """Calculating the loss"""
    loss = 0
    # gamma=0, alpha=None --> CE
    focal = FocalLoss(gamma=0, alpha=None)
    for prediction in predictions:
        bce = focal(prediction, target)
        dice = dice_loss(prediction, target)
        loss += bce + dice
    return loss
