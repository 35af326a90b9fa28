"""Read on Indico (Flask + React, dev): asked where uploaded files end up, the answer's steps said
"`AttachmentFolder.get_or_create` (`indico/modules/attachments/models/folders.py:124-142`) stores with
```to the SQLAlchemy session using ``db.session.add(...)``.```" — a line of the method's docstring, which says the
opposite: storing is the caller's job. A docstring is prose about the code; no outcome is read off it.
"""

from __future__ import annotations

from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.chunk import chunk_file
from codeqa.records import SourceFile

# indico/modules/attachments/models/folders.py, lines 120-142 (shortened)
FOLDERS = '''class AttachmentFolder(LinkMixin, ProtectionMixin, db.Model):
    __tablename__ = 'folders'

    @classmethod
    def get_or_create(cls, linked_object, title=None, **create_kwargs):
        """Get a folder for the given object or create it.

        If no folder title is specified, the default folder will be
        used.  It is the caller's responsibility to add the folder
        or an object (such as an attachment) associated with it
        to the SQLAlchemy session using ``db.session.add(...)``.
        """
        if title is None:
            return AttachmentFolder.get_or_create_default(linked_object)
        folder = AttachmentFolder.query.filter_by(object=linked_object, title=title).first()
        return folder or AttachmentFolder(object=linked_object, title=title, **create_kwargs)
'''


def test_no_outcome_is_read_off_a_docstring() -> None:
    (chunk,) = chunk_file(SourceFile("folders.py", "python", FOLDERS, len(FOLDERS)))
    outcome = outcome_of(chunk, "AttachmentFolder.get_or_create")
    assert outcome is not None and "db.session.add" not in outcome.text, outcome  # it was "stores with" that line
    assert outcome.verb == "returns" and outcome.text.startswith("return folder or"), outcome
