"""Markdown on stdin -> HTML on stdout, rendered as github.com renders comments:
cmark-gfm with GitHub's extensions (tables, strikethrough, autolinks, task lists,
the tag filter); raw HTML kept, as GitHub keeps it before its sanitizer."""
import sys

import cmarkgfm
from cmarkgfm.cmark import Options

sys.stdout.write(cmarkgfm.github_flavored_markdown_to_html(sys.stdin.read(), options=Options.CMARK_OPT_UNSAFE))
