from .attack_methods import tr_attack_iter, tr_attack_adaptive_iter
