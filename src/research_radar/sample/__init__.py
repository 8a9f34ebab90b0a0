"""The bundled sample: recorded GitHub/arXiv/feed responses, a small host project and one
earlier report, so `radar daily --sample` runs the whole pipeline offline.

Outside the core: nothing in the pipeline knows about it. `sample.demo` starts the replay
server, builds the host repository and hands the pipeline ordinary settings.
"""
