import agentsmd

# The instruction files that apply in the current directory, from / down, as a prompt.
result = agentsmd.chain(".")
print(agentsmd.render(result.files))
