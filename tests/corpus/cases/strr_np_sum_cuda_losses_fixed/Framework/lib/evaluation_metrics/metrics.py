def Accuracy(output, target, converter):
  pred_list = converter.decode(output.argmax(-1))
  score_list = [1.0] * len(pred_list)
  correct = sum(int(p == t) for p, t in zip(pred_list, target))
  return pred_list, score_list, correct / max(len(target), 1)
