default_config_dict = {
    'max_size': 25,
    'type_list': ['H', 'C', 'N', 'O', 'F'],
    'bonding': [1, 4, 3, 2, 1],
    'datasets': ['qm9'],
    'starting_size': 25,
    'start_from': '!',
    'adj_eps': 0.05,
    'bond_multiplier': 0.3,
    'max_attempts': 10,
}
