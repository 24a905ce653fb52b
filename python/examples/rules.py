import sys

import agentsmd

# The instructions for a file the agent is about to edit, with the project's Cursor and Claude
# Code rules: the rules that apply always, or by a glob the file matches, are in the rendering;
# those the model may ask for are offered after it, by name. Run it in a repository:
# python rules.py src/main.py
RULES = [("cursor", ".cursor/rules"), ("claude", ".claude/rules")]
result = agentsmd.chain(sys.argv[1], root=".", rules=RULES)
for warning in result.warnings:
    print(f"agentsmd: warning: {warning}", file=sys.stderr)
print(agentsmd.render(result.files))
for rule in result.available:
    print(f"- @{rule.name}: {rule.description}")
