"""results/preps.jsonl, or the committed results/preps.jsonl.gz when the grid was not re-run."""
import gzip, json, os
from common import HERE


def load_preps():
    path = os.path.join(HERE, "results", "preps.jsonl")
    opener = open if os.path.exists(path) else gzip.open
    path = path if os.path.exists(path) else path + ".gz"
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f]
