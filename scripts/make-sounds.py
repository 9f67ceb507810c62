#!/usr/bin/env python3
"""Generates Boardcraft's sound effects into assets/sounds/ (mono, 22 050 Hz, 16-bit WAV).

Every sound is synthesised here from sines, decays and a little seeded noise, so their origin
is this file and running it again writes byte-identical files. Python 3 standard library only.

    scripts/make-sounds.py [output folder]     (default: assets/sounds next to this script)

| file          | when it plays                        | what it is                                |
|---------------|--------------------------------------|-------------------------------------------|
| step.wav      | a piece steps, a stack or piece lands | a soft wooden click (damped wood modes)   |
| hop.wav       | each landing of a jump chain          | a bright tick; the game raises its pitch  |
|               |                                      | along the chain                           |
| capture.wav   | a Focus move captures                 | a heavier thunk (falling low tone, knock) |
| removal.wav   | GIPF pieces leave the board in a row  | a short descending sweep                  |
| game_end.wav  | the game is over                      | a three-note chime (C5 E5 G5, bell-like)  |

Loudness is baked into each file (peak levels below), so the game needs only one effects
volume.
"""
import math
import random
import sys
import wave
from array import array
from pathlib import Path

RATE = 22_050


def silence(seconds):
    return [0.0] * int(RATE * seconds)


def damped_sine(freq, decay, seconds, amp=1.0, phase=0.0):
    """A sine that dies away exponentially (time constant `decay` seconds)."""
    n = int(RATE * seconds)
    return [
        amp * math.exp(-t / decay) * math.sin(2 * math.pi * freq * t + phase)
        for t in (i / RATE for i in range(n))
    ]


def noise_burst(seconds, decay, amp, seed, smooth):
    """Decaying noise, low-passed by a one-pole filter (`smooth` in 0..1: higher = darker)."""
    rng = random.Random(seed)
    out, y = [], 0.0
    for i in range(int(RATE * seconds)):
        x = rng.uniform(-1.0, 1.0)
        y = smooth * y + (1.0 - smooth) * x
        out.append(amp * math.exp(-(i / RATE) / decay) * y)
    return out


def mix(*tracks, at=None):
    """Sums tracks; `at` gives each track's start time in seconds."""
    starts = [int(RATE * s) for s in (at or [0.0] * len(tracks))]
    length = max(s + len(t) for s, t in zip(starts, tracks))
    out = [0.0] * length
    for s, t in zip(starts, tracks):
        for i, v in enumerate(t):
            out[s + i] += v
    return out


def shape(samples, attack=0.001, release=0.006):
    """A short fade in and out, so no sound starts or stops with a click."""
    n = len(samples)
    a, r = max(1, int(RATE * attack)), max(1, int(RATE * release))
    out = list(samples)
    for i in range(min(a, n)):
        out[i] *= i / a
    for i in range(min(r, n)):
        out[n - 1 - i] *= i / r
    return out


def normalise(samples, peak_db):
    peak = max(abs(v) for v in samples) or 1.0
    gain = 10 ** (peak_db / 20) / peak
    return [v * gain for v in samples]


def write(folder, name, samples, peak_db):
    data = array("h", (int(round(max(-1.0, min(1.0, v)) * 32767)) for v in normalise(samples, peak_db)))
    if sys.byteorder == "big":
        data.byteswap()  # WAV is little-endian
    path = folder / name
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data.tobytes())
    print(f"{path}: {len(data) / RATE:.2f} s, peak {peak_db} dBFS")


def step():
    # Wood: a few inharmonic modes that die fast, and a dark tap of noise for the contact.
    d = 0.12
    return shape(mix(
        damped_sine(640, 0.030, d),
        damped_sine(1_370, 0.016, d, 0.45),
        damped_sine(2_450, 0.008, d, 0.25),
        noise_burst(d, 0.004, 0.9, seed=1, smooth=0.55),
    ))


def hop():
    # Higher and shorter than the step: a glassy tick (the game raises it up to an octave).
    d = 0.09
    return shape(mix(
        damped_sine(1_760, 0.020, d),
        damped_sine(3_520 * 1.012, 0.010, d, 0.30),
        damped_sine(4_950, 0.005, d, 0.12),
        noise_burst(d, 0.002, 0.35, seed=2, smooth=0.2),
    ), attack=0.0005)


def capture():
    # A body falling off a tower: a low tone dropping in pitch, a wooden knock, a dull thump.
    d = 0.28
    n = int(RATE * d)
    phase, low = 0.0, []
    for i in range(n):
        t = i / RATE
        freq = 90 + 90 * math.exp(-t / 0.05)  # 180 Hz sliding down to 90 Hz
        phase += 2 * math.pi * freq / RATE
        low.append(math.exp(-t / 0.085) * math.sin(phase))
    return shape(mix(
        low,
        damped_sine(430, 0.040, d, 0.55),
        damped_sine(910, 0.018, d, 0.25),
        noise_burst(d, 0.012, 0.7, seed=3, smooth=0.8),
    ), attack=0.0015, release=0.02)


def removal():
    # A row swept off the board: a soft tone gliding down a twelfth (1100 → 370 Hz).
    d = 0.42
    n = int(RATE * d)
    phase, out = 0.0, []
    for i in range(n):
        t = i / RATE
        x = t / d
        freq = 1_100 * (370 / 1_100) ** x  # exponential glide: even steps in pitch
        phase += 2 * math.pi * freq / RATE
        envelope = min(1.0, t / 0.02) * (1 - x) ** 1.5
        out.append(envelope * (math.sin(phase) + 0.22 * math.sin(2 * phase) + 0.08 * math.sin(3 * phase)))
    return shape(out, attack=0.002, release=0.03)


def bell(freq, seconds):
    # Bell-like: the fundamental rings longest, the (slightly stretched) overtones die sooner.
    # Each note fades out on its own, so a note that stops under the next one does not click.
    return shape(mix(
        damped_sine(freq, seconds * 0.45, seconds),
        damped_sine(freq * 2.0, seconds * 0.22, seconds, 0.32),
        damped_sine(freq * 3.01, seconds * 0.12, seconds, 0.14),
        damped_sine(freq * 4.17, seconds * 0.07, seconds, 0.07),
    ), attack=0.002, release=seconds * 0.3)


def game_end():
    # C major, rising: C5, E5, then G5 held longest.
    notes = [(523.25, 0.00, 1.1), (659.26, 0.15, 1.1), (783.99, 0.30, 1.3)]
    return shape(
        mix(*(bell(f, d) for f, _, d in notes), at=[s for _, s, _ in notes]),
        attack=0.002,
        release=0.08,
    )


SOUNDS = [
    ("step.wav", step, -7.0),
    ("hop.wav", hop, -9.0),
    ("capture.wav", capture, -4.0),
    ("removal.wav", removal, -8.0),
    ("game_end.wav", game_end, -6.0),
]


def main():
    default = Path(__file__).resolve().parent.parent / "assets" / "sounds"
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    folder.mkdir(parents=True, exist_ok=True)
    for name, make, peak_db in SOUNDS:
        write(folder, name, make(), peak_db)


if __name__ == "__main__":
    main()
