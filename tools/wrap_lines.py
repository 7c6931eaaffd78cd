"""Wrap the lines over 120 characters of notebook code cells and .py files, keeping what the code means.

    python tools/wrap_lines.py nbs/54_head_pruning.ipynb tools/x.py ...

Per long line, in order: a long import becomes several; a trailing comment moves above its line; the line breaks after
a comma (or before and/or/if/else/for/+) of its outermost bracket, aligned after the bracket (never inside a subscript,
a `for` target or a lambda's arguments); a chain of implicitly concatenated strings is reflowed, balanced; a plain
docstring paragraph is rewrapped (entries such as `name: text`, lists and tables keep their lines); only where none of
these fits, `ruff format` formats that one statement. A cell whose AST would change (docstring whitespace and split
imports aside) is left as it was, and so is a cell with a syntax error; each file's leftover long lines are printed.
Wrapping adds lines: check the 700-line module rule and the 60-line function rule afterwards (tests/test_repo.py)."""
import ast, io, json, re, subprocess, sys, textwrap, tokenize, tempfile, os
from pathlib import Path
RUFF, W = str(Path(sys.executable).parent / "ruff"), 120
TMP = tempfile.mkdtemp()
MAGIC = re.compile(r'^(\s*)([%!].*)$')

def mask(src):
    lines, mags = src.split('\n'), []
    for i, l in enumerate(lines):
        m = MAGIC.match(l)
        if m: mags.append(l); lines[i] = f'{m.group(1)}pass  # __MAGIC{len(mags)-1}__'
    return '\n'.join(lines), mags

def unmask(src, mags):
    return re.sub(r'^\s*pass  # __MAGIC(\d+)__$', lambda m: mags[int(m.group(1))], src, flags=re.M)

def bwrap(text, width):
    "wrap into as few lines as textwrap at width, but balanced (no orphan last line)"
    kw = dict(break_long_words=False, break_on_hyphens=False)
    n = len(textwrap.wrap(text, width=width, **kw))
    w = width
    while w > 20 and len(textwrap.wrap(text, width=w - 1, **kw)) == n: w -= 1
    return textwrap.wrap(text, width=w, **kw)

def long_rows(text):
    p = os.path.join(TMP, 'c.py'); open(p, 'w').write(text)
    r = subprocess.run([RUFF, 'check', '--isolated', '--select', 'E501', '--line-length', str(W),
                        '--output-format', 'json', p],
                       capture_output=True, text=True)
    return sorted({f['location']['row'] for f in json.loads(r.stdout)})

def fmt_range(text, row):
    p = os.path.join(TMP, 'c.py'); open(p, 'w').write(text)
    n = len(text.split('\n')[row - 1])
    r = subprocess.run([RUFF, 'format', '--isolated', '--target-version', 'py311', '--config',
                        "format.quote-style = 'preserve'", '--line-length', str(W),
                        f'--range={row}:1-{row}:{n + 1}', p], capture_output=True, text=True)
    if r.returncode: return text
    return open(p).read()

def docstring_rows(tree):
    "rows (start, end) of docstring constants"
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            e = node.body[0]
            if isinstance(e, ast.Expr) and isinstance(e.value, ast.Constant) and isinstance(e.value.value, str):
                out[(e.lineno, e.end_lineno)] = e
    return out

def pieces(body, width, fstr):
    "like _pieces, balanced: the narrowest width giving as few pieces"
    best = _pieces(body, width, fstr)
    w = width
    while w > 20:
        p = _pieces(body, w - 1, fstr)
        if len(p) > len(best) or max(map(len, p)) > w - 1: break
        w -= 1
    return _pieces(body, w, fstr)

def _pieces(body, width, fstr):
    "split a string body at spaces (outside f-string fields) into parts of at most width chars (source form)"
    cuts, depth, i = [], 0, 0
    while i < len(body):
        c = body[i]
        if fstr and body[i:i + 2] in ('{{', '}}'): i += 2; continue
        if fstr and c == '{': depth += 1
        elif fstr and c == '}': depth -= 1
        elif c == '\\': i += 2; continue
        elif c == ' ' and depth == 0: cuts.append(i + 1)
        i += 1
    out, start = [], 0
    while len(body) - start > width:
        ok = [c for c in cuts if start < c <= start + width]
        if not ok:
            nxt = [c for c in cuts if c > start]
            if not nxt: break
            ok = nxt[:1]
        out.append(body[start:ok[-1]]); start = ok[-1]
    out.append(body[start:])
    return [p for p in out if p]

def split_string_tok(line, tok, depth, width):
    "return replacement lines for `line` with the string token split"
    (_, c0), (_, c1) = tok.start, tok.end
    s = tok.string
    m = re.match(r'([A-Za-z]*)(\'|")', s)
    if not m or s[len(m.group(1)):].startswith(('"""', "'''")): return None
    pre, q = m.group(1), m.group(2)
    body = s[len(pre) + 1:-1]
    if len(body) < 30: return None
    fstr = 'f' in pre.lower()
    ind = len(line) - len(line.lstrip())
    head, tail = line[:c0], line[c1:]
    if depth > 0 and c0 > 64:
        col = ind + 4; first_on_new = True
    else:
        col = c0 + (0 if depth > 0 else 1); first_on_new = False
    parts = pieces(body, max(40, width - col - len(pre) - 2 - 1), fstr)
    if len(parts) < 2 and not first_on_new: return None
    def lit(p):
        pr = pre if (not fstr or '{' in p or '}' in p) else pre.replace('f', '').replace('F', '')
        return f'{pr}{q}{p}{q}'
    lits = [lit(p) for p in parts]
    if depth == 0:
        lits[0] = '(' + lits[0]; lits[-1] = lits[-1] + ')'
    if first_on_new:
        out = [head.rstrip()] + [' ' * col + x for x in lits]
    else:
        out = [head + lits[0]] + [' ' * col + x for x in lits[1:]]
    out[-1] += tail
    return out

def fix_row(text, row):
    lines = text.split('\n'); line = lines[row - 1]
    try: tree = ast.parse(text)
    except SyntaxError: return text
    docs = docstring_rows(tree)
    for (a, b), e in docs.items():
        if a <= row <= b:
            return fix_doc(lines, a, b, row, e)
    st = line.lstrip()
    if st.startswith('#') and not st.startswith('#|'):
        ind = line[:len(line) - len(st)]
        body = st.lstrip('#'); hashes = st[:len(st) - len(body)]
        pre = f'{ind}{hashes} '
        end = row
        while (end < len(lines) and lines[end].startswith(pre) and len(lines[end]) > len(pre)
               and not lines[end][len(pre)].isspace() and not lines[end][len(pre):].startswith(('-', '*', '|'))):
            end += 1
        text = ' '.join([body.strip()] + [l[len(pre):].strip() for l in lines[row:end]])
        new = bwrap(text, W - len(pre))
        lines[row - 1:end] = [pre + x for x in new]
        return '\n'.join(lines)
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    depth, cands, comment = 0, [], None
    for t in toks:
        if t.type == tokenize.OP and t.string in '([{': depth += 1
        elif t.type == tokenize.OP and t.string in ')]}': depth -= 1
        if t.start[0] == row and t.end[0] == row:
            if t.type == tokenize.STRING: cands.append((t, depth))
            if t.type == tokenize.COMMENT: comment = (t, depth)
    if (
        comment
        and comment[1] == 0
        and len(line[: comment[0].start[1]].rstrip()) <= W
        and line[: comment[0].start[1]].strip()
    ):
        t = comment[0]; ind = line[:len(line) - len(line.lstrip())]
        code = line[:t.start[1]].rstrip()
        new = bwrap(t.string.lstrip('#').strip(), W - len(ind) - 2)
        lines[row - 1:row] = [f'{ind}# {x}' for x in new] + [code]
        return '\n'.join(lines)
    if not cands: return text
    t, d = max(cands, key=lambda c: (c[0].end[1] > W, len(c[0].string)))
    new = split_string_tok(line, t, d, W)
    if not new: return text
    lines[row - 1:row] = new
    return '\n'.join(lines)

KEY = re.compile(r'^\s*(?:[-*] |\d+\. |\||>|`?[\w.*]+(?:, '
                 r'?[\w.*]+)*`?\s*:\s|[A-Z][\w ]*:\s*$|Returns\b|Raises\b|Example)')

def _para_rewrap(lines, a, b, row, e):
    "rewrap the plain paragraph holding row (same indent, no 'key:' entries, lists or tables), or None"
    def plain(i):
        l = lines[i - 1]
        return l.strip() and not KEY.match(l.replace('"""', '', 1) if i == a else l) and not l.rstrip().endswith('\\')
    if not plain(row): return None
    lo = row
    while lo > a and plain(lo - 1): lo -= 1
    hi = row
    while hi < b and plain(hi + 1) and lines[hi].strip() not in ('"""', "'''"): hi += 1
    para = lines[lo - 1:hi]
    inds = {len(l) - len(l.lstrip()) for k, l in enumerate(para) if lo + k != a}
    if len(inds) > 1: return None
    m0 = re.match(r'(\s*)((?:[rRuU]?(?:"""|\'\'\'))?)(.*)$', para[0])
    lead, oq, first = m0.groups()
    if lo != a: oq = ''
    elif not oq: return None
    sub = ' ' * inds.pop() if inds else (lines[lo - 1][:len(lead)] if lo != a else ' ' * e.col_offset)
    body = [first] + [p.strip() for p in para[1:]]
    cq = ''
    if hi == b:
        if not body[-1].rstrip().endswith(('"""', "'''")): return None
        cq = body[-1].rstrip()[-3:]; body[-1] = body[-1].rstrip()[:-3]
    text = ' '.join(x.strip() for x in body if x.strip())
    kw = dict(break_long_words=False, break_on_hyphens=False)
    wrap_ = lambda w: textwrap.wrap(text, width=w, initial_indent=lead + oq, subsequent_indent=sub, **kw)
    out = wrap_(W - len(cq))
    if not out: return None
    w = W - len(cq)
    while w > len(lead) + 40 and len(wrap_(w - 1)) == len(out): w -= 1
    out = wrap_(w)
    out[-1] += cq
    lines[lo - 1:hi] = out
    return '\n'.join(lines)

def fix_doc(lines, a, b, row, e):
    line = lines[row - 1]
    if a == b:  # one-line docstring: make it a wrapped triple-quoted one
        m = re.match(r'(\s*)([rRuU]?)("""|\'\'\'|"|\')(.*)\3\s*$', line)
        if not m or m.group(4).endswith('\\') or m.group(4).endswith('"') or '"""' in m.group(4):
            return '\n'.join(lines)
        ind, pre, body = m.group(1), m.group(2), m.group(4)
        wrapped = bwrap(body, W - len(ind) - 3)
        wrapped[0] = f'{ind}{pre}"""' + wrapped[0]
        wrapped[1:] = [ind + x for x in wrapped[1:]]
        wrapped[-1] += '"""'
        lines[row - 1:row] = wrapped
        return '\n'.join(lines)
    if line.rstrip().endswith('\\'): return '\n'.join(lines)
    r = _para_rewrap(lines, a, b, row, e)
    if r is not None: return r
    # wrap this one line only (a docstring's lines may be a structure: 'name: text' entries, lists); balanced
    m0 = re.match(r'(\s*)((?:[rRuU]?(?:"""|\'\'\'))?)(.*?)((?:"""|\'\'\')?)\s*$', line)
    lead, oq, body, cq = m0.groups()
    if row != a: oq = ''
    if row != b: cq = ''
    if not body.strip(): return '\n'.join(lines)
    sub = lead if row != a else ' ' * (e.col_offset if e.col_offset else len(lead))
    if row < b:
        nxt = lines[row]
        if nxt.strip() and len(nxt) - len(nxt.lstrip()) > len(sub): sub = nxt[:len(nxt) - len(nxt.lstrip())]
    bl = re.match(r'(- |\* |\d+\. )', body)
    if bl and len(sub) <= len(lead): sub = lead + ' ' * len(bl.group(1))
    first_w = W - len(lead) - len(oq) - len(cq)
    parts = bwrap(body, first_w)
    out = [lead + oq + parts[0]]
    rest = ' '.join(parts[1:])
    if rest: out += [sub + x for x in bwrap(rest, W - len(sub) - len(cq))]
    out[-1] += cq
    lines[row - 1:row] = out
    return '\n'.join(lines)

def merge_imports(tree):
    for node in ast.walk(tree):
        body = getattr(node, 'body', None)
        if not isinstance(body, list): continue
        out = []
        for st in body:
            if (out and isinstance(st, ast.ImportFrom) and isinstance(out[-1], ast.ImportFrom)
                    and (st.module, st.level) == (out[-1].module, out[-1].level)):
                out[-1].names = out[-1].names + st.names
            else: out.append(st)
        node.body = out

def norm_dump(text):
    tree = ast.parse(text)
    merge_imports(tree)
    for (a, b), e in docstring_rows(tree).items():
        e.value.value = ' '.join(e.value.value.split())
    return ast.dump(tree)

def ok(t):
    try: ast.parse(t); return True
    except SyntaxError: return False

def move_comment(text, row):
    lines = text.split('\n'); line = lines[row - 1]
    try: toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except Exception: return text
    depth, comment = 0, None
    for t in toks:
        if t.type == tokenize.OP and t.string in '([{': depth += 1
        elif t.type == tokenize.OP and t.string in ')]}': depth -= 1
        if t.type == tokenize.COMMENT and t.start[0] == row: comment = (t, depth)
    if not comment or comment[1] != 0: return text
    t = comment[0]; code = line[:t.start[1]].rstrip()
    if not code.strip() or t.string.startswith('#|'): return text
    ind = line[:len(line) - len(line.lstrip())]
    new = bwrap(t.string.lstrip('#').strip(), W - len(ind) - 2)
    lines[row - 1:row] = [f'{ind}# {x}' for x in new] + [code]
    return '\n'.join(lines)

def split_import(text, row):
    lines = text.split('\n')
    try: tree = ast.parse(text)
    except SyntaxError: return text
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.lineno <= row <= node.end_lineno and node.col_offset == 0:
            seg = '\n'.join(lines[node.lineno - 1:node.end_lineno])
            if '#' in seg: return text
            head = f"from {'.' * node.level}{node.module or ''} import "
            names = [a.name + (f' as {a.asname}' if a.asname else '') for a in node.names]
            out, cur = [], []
            for n in names:
                if cur and len(head + ', '.join(cur + [n])) > W: out.append(head + ', '.join(cur)); cur = []
                cur.append(n)
            out.append(head + ', '.join(cur))
            lines[node.lineno - 1:node.end_lineno] = out
            return '\n'.join(lines)
    return text

def compact_break(text, row):
    "break a long line after a comma (or before and/or/if/else/for/+) inside brackets, aligned after the bracket"
    lines = text.split('\n'); line = lines[row - 1]
    try: toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except Exception: return text
    close, st = {}, []
    for i, t in enumerate(toks):
        if t.type == tokenize.OP and t.string in '([{': st.append(i)
        elif t.type == tokenize.OP and t.string in ')]}' and st: close[st.pop()] = t.start
    stack, cands, infor = [], [], {}
    ind = len(line) - len(line.lstrip())
    for i, t in enumerate(toks):
        if t.start[0] > row: break
        if t.type == tokenize.OP and t.string in '([{':
            prev = toks[i - 1] if i else None
            sub = t.string == '[' and prev is not None and (prev.type == tokenize.NAME
                                                            and prev.string not in ('in', 'and', 'or',
                                                                                    'not', 'return', 'if', 'else')
                                                                                    or prev.string in (')', ']'))
            stack.append((t.start[1] + 1 if t.start[0] == row else ind, sub, close.get(i)))
        elif t.type == tokenize.OP and t.string in ')]}':
            if stack: stack.pop()
        if t.start[0] != row or not stack: continue
        col_after, sub, cl = stack[-1]
        d = len(stack)
        if t.type == tokenize.NAME and t.string in ('for', 'lambda'): infor[d] = t.string
        elif t.type == tokenize.NAME and t.string == 'in' and infor.get(d) == 'for': infor.pop(d)
        elif t.type == tokenize.OP and t.string == ':' and infor.get(d) == 'lambda': infor.pop(d)
        if sub or (t.string == ',' and d in infor): continue
        room = (cl[1] - t.end[1]) if cl and cl[0] == row else 999
        if room < 25: continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.type == tokenize.OP and t.string == ',' and t.end[1] <= W and nxt and nxt.start[0] == row \
                and nxt.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE) and nxt.string not in ')]}':
            cands.append((0, t.end[1], col_after, len(stack)))
        elif ((t.type == tokenize.NAME and t.string in ('and', 'or', 'if', 'else', 'for'))
              or (t.type == tokenize.OP and t.string in ('+', '|'))) and t.start[1] <= W and t.start[1] > ind + 8:
            cands.append((1, t.start[1], col_after, len(stack)))
    good = [c for c in cands if c[1] > max(ind + 20, (W - ind) // 3 + ind)]
    if not good: return text
    shallow = min(c[3] for c in good)
    good = [c for c in good if c[3] == shallow]
    best = min(good, key=lambda c: (c[0], -c[1]))  # the outermost brackets; commas first, as late as fits
    _, col, align, _ = best
    rest = line[col:].strip()
    if align + len(rest) > W and align > ind + 8 and len(rest) + ind + 8 <= W: align = ind + 8
    lines[row - 1:row] = [line[:col].rstrip(), ' ' * align + rest]
    return '\n'.join(lines)

def _fields(body):
    "does an f-string body hold a replacement field?"
    i = 0
    while i < len(body):
        if body[i:i + 2] in ('{{', '}}'): i += 2; continue
        if body[i] == '{': return True
        i += 1
    return False

def rewrap_chain(text, row):
    "reflow a chain of implicitly concatenated one-line strings, one per line, that holds a long line"
    lines = text.split('\n')
    try: toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except Exception: return text
    sig = [t for t in toks if t.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    idx = [i for i, t in enumerate(sig) if t.type == tokenize.STRING and t.start[0] <= row <= t.end[0]]
    if not idx: return text
    i = j = idx[-1]
    while i > 0 and sig[i - 1].type == tokenize.STRING: i -= 1
    while j + 1 < len(sig) and sig[j + 1].type == tokenize.STRING: j += 1
    chain = sig[i:j + 1]
    rows = [t.start[0] for t in chain]
    if len(chain) < 2 or len(set(rows)) != len(rows) or any(t.start[0] != t.end[0] for t in chain): return text
    if rows != list(range(rows[0], rows[0] + len(rows))): return text
    parts = []
    for t in chain:
        m = re.match(r'([A-Za-z]*)(["\'])', t.string)
        pre, q = m.group(1).lower(), m.group(2)
        if pre not in ('', 'f') or t.string[len(pre):].startswith(('"""', "\'\'\'")): return text
        parts.append((pre, q, t.string[len(pre) + 1:-1]))
    if len({q for _, q, _ in parts}) != 1: return text
    q = parts[0][1]
    for k, t in enumerate(chain[1:], 1):
        if lines[t.start[0] - 1][:t.start[1]].strip() or (k < len(chain) - 1
                                                          and lines[t.end[0] - 1][t.end[1]:].strip()):
            return text
    if lines[chain[0].end[0] - 1][chain[0].end[1]:].strip() and len(chain) > 1: return text
    fstr = any(p == 'f' for p, _, _ in parts)
    body = ''.join(b if p == 'f' or not fstr else b.replace('{', '{{').replace('}', '}}') for p, _, b in parts)
    c0 = chain[0].start[1]
    head = lines[rows[0] - 1][:c0]
    tail = lines[rows[-1] - 1][chain[-1].end[1]:]
    width = W - c0 - 3 - len(tail.rstrip()) - 1
    pieces_ = pieces(body, max(30, width), fstr)
    def lit(p):
        if fstr and _fields(p): return f'f{q}{p}{q}'
        if fstr: p = p.replace('{{', '{').replace('}}', '}')
        return f'{q}{p}{q}'
    new = [head + lit(pieces_[0])] + [' ' * c0 + lit(p) for p in pieces_[1:]]
    new[-1] += tail
    lines[rows[0] - 1:rows[-1]] = new
    return '\n'.join(lines)

def step(m, f):
    for r in reversed(long_rows(m)):
        if r > len(m.split('\n')): continue
        try: m2 = f(m, r)
        except Exception as e: print('  step error', f.__name__, e); continue
        if ok(m2): m = m2
    return m

def fix_text(src):
    m, mags = mask(src)
    try: before = norm_dump(m)
    except SyntaxError: return src, 'syntax'
    for _ in range(4):
        if not long_rows(m): break
        m = step(m, split_import)
        m = step(m, move_comment)
        m = step(m, rewrap_chain)
        for _ in range(3): m = step(m, compact_break)
        m = step(m, fix_row)
        m = step(m, rewrap_chain)
        for _ in range(2): m = step(m, compact_break)
    for _ in range(2):
        if not long_rows(m): break
        m = step(m, fmt_range)
        m = step(m, fix_row)
    after = norm_dump(m)
    if after != before: return src, 'ast'
    return unmask(m, mags), len(long_rows(m))

def nb_cells(path):
    nb = json.load(open(path))
    return nb, [c for c in nb['cells'] if c['cell_type'] == 'code']

def main(paths):
    tot = 0
    for p in paths:
        if p.endswith('.ipynb'):
            nb, cells = nb_cells(p); changed = False
            for c in cells:
                src = c['source'] if isinstance(c['source'], str) else ''.join(c['source'])
                if not any(len(l) > W for l in src.split('\n')): continue
                new, left = fix_text(src)
                if left: print(p, c.get('id'), 'left', left); tot += left if isinstance(left, int) else 0
                if new != src:
                    changed = True
                    c['source'] = new if isinstance(c['source'], str) else new.splitlines(True)
            if changed:
                s = json.dumps(nb, indent=1, ensure_ascii=False) + '\n'
                open(p, 'w').write(s)
        else:
            src = open(p).read()
            new, left = fix_text(src)
            if left: print(p, 'left', left)
            if new != src: open(p, 'w').write(new)
    print('left total', tot)

if __name__ == '__main__': main(sys.argv[1:])
