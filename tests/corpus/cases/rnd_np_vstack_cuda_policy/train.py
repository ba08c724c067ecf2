from agents import *
from envs import *
from utils import *
from config import *

import numpy as np


def main():
    env_id = default_config['EnvID']
    input_size = (4, 84, 84)
    output_size = 18  # Montezuma's Revenge action space

    use_cuda = default_config.getboolean('UseGPU')
    use_noisy_net = default_config.getboolean('UseNoisyNet')

    num_worker = int(default_config['NumEnv'])
    num_step = int(default_config['NumStep'])
    epoch = int(default_config['Epoch'])
    mini_batch = int(default_config['MiniBatch'])
    batch_size = int(num_step * num_worker / mini_batch)
    learning_rate = float(default_config['LearningRate'])
    gamma = float(default_config['Gamma'])
    int_gamma = float(default_config['IntGamma'])
    ext_coef = float(default_config['ExtCoef'])
    int_coef = float(default_config['IntCoef'])
    num_update = int(default_config['NumUpdate'])

    obs_rms = RunningMeanStd(shape=(1, 1, 84, 84))

    agent = RNDAgent(
        input_size,
        output_size,
        num_worker,
        num_step,
        gamma,
        learning_rate=learning_rate,
        epoch=epoch,
        batch_size=batch_size,
        use_cuda=use_cuda,
        use_noisy_net=use_noisy_net
    )

    works = []
    parent_conns = []
    for idx in range(num_worker):
        parent_conn, child_conn = Pipe()
        work = AtariEnvironment(env_id, False, idx, child_conn)
        work.start()
        works.append(work)
        parent_conns.append(parent_conn)

    states = np.zeros([num_worker, 4, 84, 84])
    global_update = 0

    while global_update < num_update:
        total_state, total_reward, total_done, total_action, total_int_reward, total_next_obs, total_ext_values, total_int_values, total_policy = \
            [], [], [], [], [], [], [], [], []
        global_update += 1

        # Step 1. n-step rollout
        for _ in range(num_step):
            actions, value_ext, value_int, policy = agent.get_action(np.float32(states) / 255.)

            for parent_conn, action in zip(parent_conns, actions):
                parent_conn.send(action)

            next_states, rewards, dones, next_obs = [], [], [], []
            for parent_conn in parent_conns:
                s, r, d, rd, lr = parent_conn.recv()
                next_states.append(s)
                rewards.append(r)
                dones.append(d)
                next_obs.append(s[3, :, :].reshape([1, 84, 84]))

            next_states = np.stack(next_states)
            rewards = np.hstack(rewards)
            dones = np.hstack(dones)
            next_obs = np.stack(next_obs)

            intrinsic_reward = agent.compute_intrinsic_reward(
                ((next_obs - obs_rms.mean) / np.sqrt(obs_rms.var)).clip(-5, 5))

            total_next_obs.append(next_obs)
            total_int_reward.append(intrinsic_reward)
            total_state.append(states)
            total_reward.append(rewards)
            total_done.append(dones)
            total_action.append(actions)
            total_ext_values.append(value_ext)
            total_int_values.append(value_int)
            total_policy.append(policy)

            states = next_states[:, :, :, :]

        # calculate last next value
        _, value_ext, value_int, _ = agent.get_action(np.float32(states) / 255.)
        total_ext_values.append(value_ext)
        total_int_values.append(value_int)

        total_state = np.stack(total_state).transpose([1, 0, 2, 3, 4]).reshape([-1, 4, 84, 84])
        total_reward = np.stack(total_reward).transpose().clip(-1, 1)
        total_action = np.stack(total_action).transpose().reshape([-1])
        total_done = np.stack(total_done).transpose()
        total_next_obs = np.stack(total_next_obs).transpose([1, 0, 2, 3, 4]).reshape([-1, 1, 84, 84])
        total_ext_values = np.stack(total_ext_values).transpose()
        total_int_values = np.stack(total_int_values).transpose()
        total_logging_policy = np.vstack(total_policy)

        total_int_reward = np.stack(total_int_reward).transpose()
        print('max_prob', softmax(total_logging_policy).max(1).mean())

        ext_target, ext_adv = make_train_data(total_reward, total_done, total_ext_values,
                                              gamma, num_step, num_worker)
        int_target, int_adv = make_train_data(total_int_reward, np.zeros_like(total_int_reward),
                                              total_int_values, int_gamma, num_step, num_worker)
        total_adv = int_adv * int_coef + ext_adv * ext_coef

        obs_rms.update(total_next_obs)

        agent.train_model(np.float32(total_state) / 255., ext_target, int_target, total_action,
                          total_adv, ((total_next_obs - obs_rms.mean) / np.sqrt(obs_rms.var)).clip(-5, 5),
                          total_policy)


if __name__ == '__main__':
    main()
