"""The calls that *do the thing* a question asks about, by the framework's own names for them: the user signed in, a
token issued, a job queued, a record stored, a signal or an event sent.

Two readers share them: ``endings`` (where a step of a flow ends) and ``lineroles`` (which lines a snippet keeps).
"""

from __future__ import annotations

import re

# the session key of the signed-in user: ``user``, ``user_id``, ``userId``, ``current_user_id``; not a user kept for a
# later step or another purpose (``registered_user_id`` awaiting activation, ``mfa_user_id`` / ``2fa_user`` awaiting a
# second factor, ``login_as_orig_user``, ``user_return_to``), which signs no one in
_SIGNED_IN = r"(?:(?:current|logged_?in|signed_?in|auth|authenticated)_?)?[uU]ser(?:_?[iI][dD])?"
# a key naming some other user (``mfa_user_id``, ``registered_user_id``): a user held for later, not signed in
_HELD_USER = r"(?!\s*[:'\"]?(?!(?:current|logged_?in|signed_?in|auth|authenticated)_)\w+_user)"
SIGNS_IN = re.compile(  # a call that puts the user into the session, by the framework's own name for it
    r"(?<![\w.])(?:auth_)?login\(\s*request\s*,|(?<![\w.])login_user\(|\bset_session_user\(|"
    r"(?<![\w.])(?:sign_in|start_new_session_for)\b(?!\s*[=:?])|\bAuth::(?:login|loginUsingId|attempt)\(|"
    r"\bauth\(\)->(?:login|attempt)\(|\breq\.(?:login|logIn)\(|"
    rf"\bsession\[\s*[:'\"]{_SIGNED_IN}['\"]?\s*\]\s*=[^=]|\b(?:req\.)?session\.{_SIGNED_IN}\s*=[^=]|"
    rf"\bsession\[{_HELD_USER}[^\]]+\]\s*=\s*@?(?:user|current_user|account)(?:\.(?:id|pk|uuid))?\s*;?\s*$"  # = user.id
)
ISSUES_TOKEN = re.compile(  # a call that issues the token a client signs in with from then on
    r"\bjwt\.(?:sign|encode)\(|\bcreate_(?:access|refresh)_token\(|\b(?:RefreshToken|AccessToken)\.for_user\(|"
    r"\bjwtService\.sign(?:Async)?\(|->createToken\(|\bgenerate_?(?:jwt|auth_?token)\w*\(|"
    r"(?<![\w.])create(?:Secure|Access|Refresh|Auth|Api|Composite|Personal\w*|Session|Login|Bearer)?Token\("
)
QUEUES_JOB = re.compile(
    r"\.(?:delay|apply_async|enqueue\w*|perform_later|perform_async|send_task|add_job)\(|\bqueue\.add\("
)
STORES = re.compile(
    # (not a list's `paths.insert(0, x)`: its first argument is a position; not `Object.create(…)`, `axios.create(…)`;
    # not a node put into a tree in memory: BeautifulSoup's `tag.insert_after("\n")`, the DOM's `insertBefore(…)`)
    r"\b(?:session|db)\.(?:commit|add|add_all|merge|flush)\(|(?<!\bObject)(?<!\baxios)\.(?:save|create|"
    r"insert(?!_?(?:[Aa]fter|[Bb]efore|[Aa]djacent))\w*|"
    r"bulk_create|persist|insertOne|updateOne|insertMany)!?\((?!\s*-?\d+\s*,)(?!\s*len\()"
    # (not an image or a workbook saved into a buffer in memory: ``image.save(buffer, "PNG")``, ``wb.save(BytesIO())``)
    r"(?!\s*(?:\w*(?:buf|buffer|stream)\w*|(?:io\.)?(?:Bytes|String)IO\(\))\s*[,)])|"
    # an update of a record (a model class, a query, a repository, the database), not of a hash, a cipher or a
    # dict in memory (``cipher.update(…)``, ``headers.update(…)``)
    r"\b(?:[A-Z]\w*|objects|filter\([^)]*\)|where\([^)]*\)|db|session|repo\w*|\w*[Rr]epository|prisma\.\w+|"
    r"self|this|record|model)\.update(?:_all|_columns?|Many)?!?\((?!\s*\))|\.update!\("
)  # (an update naming nothing to write, ``plugins.update()``, reloads or redraws: no record's)
# a write-named call on the object itself: the class's own method when its file defines one (``endings.own_write``)
SELF_WRITE = re.compile(
    r"(?<![\w$])(?:this\s*\.|self\s*\.|\$this\s*->)\s*(?P<name>save|create|insert(?!_?(?:[Aa]fter|[Bb]efore|[Aa]djacent))\w*|update\w*|persist|commit)!?\s*\("
)
SENDS_SIGNAL = re.compile(  # a signal, an event or a job sent to whoever listens (Django/Blinker signals, emitters,
    # Laravel's events and dispatched jobs, pub/sub), not a socket's or a mailer's ``send``
    r"\b\w*signals?(?:\.\w+)*\.send(?:_robust)?\(|\b\w+\.send(?:_robust)?\(\s*sender\s*=|\.emit\(|"
    r"(?<![\w.>:$])event\(\s*new\b|\b(?:Event::|[A-Z]\w*::)dispatch(?:Now|Sync|AfterResponse)?\(|"
    r"\bdispatch(?:Now|Sync)?\(\s*new\b|\bActiveSupport::Notifications\.instrument\(|\.publish\("
)
