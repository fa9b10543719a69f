"""A Pygments lexer for Tile IR (registered as `tileir`: `pygmentize -l tileir FILE`)."""
from pygments.lexer import RegexLexer, bygroups
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Text, Whitespace)


class TileIRLexer(RegexLexer):
    name = "Tile IR"
    aliases = ["tileir", "tile-ir"]
    filenames = ["*.tileir"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"//.*?$", Comment.Single),
            (r"^(#[\w.$]+)(\s*=)", bygroups(Name.Label, Operator)),
            (r"\bloc\(", Comment.Preproc, "loc"),
            (r"%[\w.$-]+(#\d+)?(:\d+)?", Name.Variable),
            (r"@[\w.$]+", Name.Function),
            (r"#[\w.$]+", Name.Label),
            (r'"(\\\\|\\"|[^"])*"', String),
            (r"\b(entry|for|if|else|reduce|scan|loop|while|return|yield|continue|break)\b",
             Keyword),
            (r"\b(tile|ptr|token|tensor_view|partition_view|strides|padding_value)\b",
             Keyword.Type),
            (r"\b(div_by|bounded|same_elements|optimization_hints|identities|dim|"
             r"latency|allow_tma|weak|relaxed|acquire|release)\b", Name.Attribute),
            (r"\b[if](1|8|16|32|64)\b|\bbf16\b|\btf32\b", Keyword.Type),
            (r"0x[0-9A-Fa-f]+", Number.Hex),
            (r"-?\d+\.\d+([eE][+-]?\d+)?", Number.Float),
            (r"-?\d+", Number.Integer),
            (r"(\b[a-z_][\w.]*)(?=\s)", Name.Builtin),
            (r"->|[=:,?*x]", Operator),
            (r"[()\[\]{}<>]", Punctuation),
            (r"[\w.$]+", Text),
            (r".", Text),
        ],
        "loc": [
            (r"[^()]+", Comment.Preproc),
            (r"\(", Comment.Preproc, "#push"),
            (r"\)", Comment.Preproc, "#pop"),
        ],
    }
