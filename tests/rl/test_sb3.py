"""Issue 22, item 2: Stable-Baselines3 over Four Card Poker's vector env (fourcards.rl.sb3).

The ``sb3`` extra (stable-baselines3, sb3-contrib, PyTorch) is kept out of ``test``: the tests that
need it skip where it is not installed; the one without it always runs.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest


def test_issue22_without_the_sb3_extra_the_module_names_it() -> None:
    code = ("import sys; sys.modules['stable_baselines3'] = None\n"
            "try:\n    import fourcards.rl.sb3\nexcept ImportError as exc:\n    print(type(exc).__name__, exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "MissingExtraError fourcards.rl.sb3 needs the sb3 extra: pip install 'fourcards[sb3]'"


def test_issue22_maskable_ppo_trains_on_the_sb3_vec_env_with_masks() -> None:
    pytest.importorskip("stable_baselines3")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from fourcards.rl.sb3 import PokerSB3VecEnv, policy_of

    env = PokerSB3VecEnv(64, "online", seed=0)
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.shape == (64, 4) and masks[:, [0, 1, 3]].all() and not masks[:, 2].any()
    obs = env.reset()
    assert obs.shape == (64, 104) and obs.dtype == np.int8
    obs2, rewards, dones, infos = env.step(np.full(64, 3))
    assert dones.all() and rewards.dtype == np.float32 and (infos[5]["terminal_observation"] == obs[5]).all()
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=4, batch_size=128, n_epochs=1, seed=0, verbose=0,
                                    policy_kwargs={"net_arch": [16]})
    model.learn(total_timesteps=1024)
    actions, _ = model.predict(obs2, deterministic=False, action_masks=get_action_masks(env))
    assert set(actions.tolist()) <= {0, 1, 3}
    policy = policy_of(model, "online")
    cards = np.array([[0, 4, 9, 30, 51], [1, 2, 3, 5, 6]], dtype=np.uint8)
    assert set(policy(cards, np.array([44, 20], dtype=np.uint8)).tolist()) <= {0, 1, 3}
