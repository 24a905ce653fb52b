import sys

import agentsmd

# A product's read tool, wired to a session: each read answers the file's text and, after it,
# the instructions that newly apply there, so that a nested AGENTS.md reaches the model the
# first time the agent works below it, and never twice. Run it in a repository:
# python session.py src/main.py src/util.py
with agentsmd.Session(root=".") as session:

    def read(path: str) -> str:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        delta = session.touch(path)
        return text + agentsmd.render(delta.files)

    for path in sys.argv[1:]:
        print(read(path))
