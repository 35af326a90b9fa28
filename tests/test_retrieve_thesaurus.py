"""The vocabulary gap (#36): a newcomer's words are not the code's, and the software thesaurus bridges them.

realsize-dev netbox asked "When someone edits a device, how can another system be told about it automatically?":
the answer is ``extras/webhooks.py`` (``send_webhook``), which shares no word with the question, so retrieval
ranked the device views and the change log first and the webhook code out of reach (no signal had it in its best
60 files). indico asked "How does the app refuse a form that another website submits on behalf of a signed-in
user?": the answer is ``RH._check_csrf`` in ``web/rh.py``, and no word of the question is ``csrf``. The thesaurus
(``codeqa/retrieve/thesaurus.toml``) says that outside systems are told through webhooks and that a form another
site submits is a cross-site request forgery; retrieval adds those code words to its lexical evidence.

netbox is five of its real files (trimmed), indexed by the real pipeline; the retrieval tests also retrieve with the
thesaurus turned off, to show it is what finds the file. indico's question is checked at the phrase level (in a
handful of files every file is a candidate anyway).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.retrieve import features, retrieve
from codeqa.retrieve import question as question_module
from codeqa.retrieve.thesaurus import DATA, Expansion, expand, load

NETBOX = {
    "netbox/extras/webhooks.py": '''import hashlib
import hmac
import logging

import requests
from django_rq import job
from jinja2.exceptions import TemplateError

from netbox.registry import registry
from utilities.proxy import resolve_proxies

from .constants import WEBHOOK_EVENT_TYPES

__all__ = (
    'generate_signature',
    'register_webhook_callback',
    'send_webhook',
)

logger = logging.getLogger('netbox.webhooks')


def register_webhook_callback(func):
    """
    Register a function as a webhook callback.
    """
    registry['webhook_callbacks'].append(func)
    logger.debug(f'Registered webhook callback {func.__module__}.{func.__name__}')
    return func


def generate_signature(request_body, secret):
    """
    Return a cryptographic signature that can be used to verify the authenticity of webhook data.
    """
    hmac_prep = hmac.new(
        key=secret.encode('utf8'),
        msg=request_body,
        digestmod=hashlib.sha512
    )
    return hmac_prep.hexdigest()


@job('default')
def send_webhook(event_rule, object_type, event_type, data, timestamp, username, request=None, snapshots=None):
    """
    Make a POST request to the defined Webhook
    """
    webhook = event_rule.action_object

    # Prepare context data for headers & body templates
    context = {
        'event': WEBHOOK_EVENT_TYPES.get(event_type, event_type),
        'timestamp': timestamp,
        'object_type': '.'.join(object_type.natural_key()),
        'username': username,
        'request_id': request.id if request else None,
        'data': data,
    }
    if request:
        context['request'] = {
            'id': str(request.id) if request.id else None,
            'method': request.method,
            'path': request.path,
            'user': str(request.user),
        }
    if snapshots:
        context.update({
            'snapshots': snapshots
        })

    # Add any additional context from plugins
    callback_data = {}
    for callback in registry['webhook_callbacks']:
        try:
            if ret := callback(object_type, event_type, data, request):
                callback_data.update(**ret)
        except Exception as e:
            logger.warning(f"Caught exception when processing callback {callback}: {e}")
            pass
    if callback_data:
        context['context'] = callback_data

    # Build the headers for the HTTP request
    headers = {
        'Content-Type': webhook.http_content_type,
    }
    try:
        headers.update(webhook.render_headers(context))
    except (TemplateError, ValueError) as e:
        logger.error(f"Error parsing HTTP headers for webhook {webhook}: {e}")
        raise e

    # Render the request body
    try:
        body = webhook.render_body(context)
    except TemplateError as e:
        logger.error(f"Error rendering request body for webhook {webhook}: {e}")
        raise e

    # Prepare the HTTP request
    url = webhook.render_payload_url(context)
    params = {
        'method': webhook.http_method,
        'url': url,
        'headers': headers,
        'data': body.encode('utf8'),
    }
    logger.info(
        f"Sending {params['method']} request to {params['url']} ({context['object_type']} {context['event']})"
    )
    logger.debug(params)
    try:
        prepared_request = requests.Request(**params).prepare()
    except requests.exceptions.RequestException as e:
        logger.error(f"Error forming HTTP request: {e}")
        raise e

    # If a secret key is defined, sign the request with a hash of the key and its content
    if webhook.secret != '':
        prepared_request.headers['X-Hook-Signature'] = generate_signature(prepared_request.body, webhook.secret)

    # Send the request
    with requests.Session() as session:
        session.verify = webhook.ssl_verification
        if webhook.ca_file_path:
            session.verify = webhook.ca_file_path
        proxies = resolve_proxies(url=url, context={'client': webhook})
        response = session.send(prepared_request, proxies=proxies)

    if 200 <= response.status_code <= 299:
        logger.info(f"Request succeeded; response status {response.status_code}")
        return f"Status {response.status_code} returned, webhook successfully processed."
    logger.warning(f"Request failed; response status {response.status_code}: {response.content}")
    raise requests.exceptions.RequestException(
        f"Status {response.status_code} returned with content '{response.content}', webhook FAILED to process."
    )
''',
    "netbox/core/models/change_logging.py": '''from functools import cached_property

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from mptt.models import MPTTModel

from core.choices import ObjectChangeActionChoices
from core.querysets import ObjectChangeQuerySet
from netbox.models.features import ChangeLoggingMixin, has_feature
from utilities.data import deep_compare_dict

__all__ = (
    'ObjectChange',
)


class ObjectChange(models.Model):
    """
    Record a change to an object and the user account associated with that change. A change record may optionally
    indicate an object related to the one being changed. For example, a change to an interface may also indicate the
    parent device. This will ensure changes made to component models appear in the parent model's changelog.
    """
    time = models.DateTimeField(
        verbose_name=_('time'),
        auto_now_add=True,
        editable=False,
        db_index=True
    )
    user = models.ForeignKey(
        to=settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name='changes',
        blank=True,
        null=True
    )
    user_name = models.CharField(
        verbose_name=_('user name'),
        max_length=150,
        editable=False
    )
    request_id = models.UUIDField(
        verbose_name=_('request ID'),
        editable=False,
        db_index=True
    )
    action = models.CharField(
        verbose_name=_('action'),
        max_length=50,
        choices=ObjectChangeActionChoices
    )
    changed_object_type = models.ForeignKey(
        to='contenttypes.ContentType',
        on_delete=models.PROTECT,
        related_name='+'
    )
    changed_object_id = models.PositiveBigIntegerField()
''',
    "netbox/dcim/models/devices.py": '''class Device(
    ContactsMixin,
    ImageAttachmentsMixin,
    RenderConfigMixin,
    ConfigContextModel,
    TrackingModelMixin,
    PrimaryModel
):
    """
    A Device represents a piece of physical hardware mounted within a Rack. Each Device is assigned a DeviceType,
    DeviceRole, and (optionally) a Platform. Device names are not required, however if one is set it must be unique.

    Each Device must be assigned to a site, and optionally to a rack within that site. Associating a device with a
    particular rack face or unit is optional (for example, vertically mounted PDUs do not consume rack units).

    When a new Device is created, console/power/interface/device bay components are created along with it as dictated
    by the component templates assigned to its DeviceType. Components can also be added, modified, or deleted after the
    creation of a Device.
    """
    device_type = models.ForeignKey(
        to='dcim.DeviceType',
        on_delete=models.PROTECT,
        related_name='instances'
    )
    role = models.ForeignKey(
        to='dcim.DeviceRole',
        on_delete=models.PROTECT,
        related_name='devices',
        help_text=_("The function this device serves")
    )
    tenant = models.ForeignKey(
        to='tenancy.Tenant',
        on_delete=models.PROTECT,
        related_name='devices',
        blank=True,
        null=True
    )
    platform = models.ForeignKey(
        to='dcim.Platform',
        on_delete=models.SET_NULL,
        related_name='devices',
        blank=True,
        null=True
''',
    "netbox/ipam/models/services.py": '''class Service(ContactsMixin, ServiceBase, PrimaryModel):
    """
    A Service represents a layer-four service (e.g. HTTP or SSH) running on a Device or VirtualMachine. A Service may
    optionally be tied to one or more specific IPAddresses belonging to its parent.
    """
    parent_object_type = models.ForeignKey(
        to='contenttypes.ContentType',
        on_delete=models.PROTECT,
        related_name='+',
    )
    parent_object_id = models.PositiveBigIntegerField()
    parent = GenericForeignKey(
        ct_field='parent_object_type',
        fk_field='parent_object_id'
    )
    name = models.CharField(
        max_length=100,
        verbose_name=_('name')
    )
    ipaddresses = models.ManyToManyField(
        to='ipam.IPAddress',
        related_name='services',
        blank=True,
        verbose_name=_('IP addresses'),
        help_text=_("The specific IP addresses (if any) to which this application service is bound")
    )

    clone_fields = (
        'protocol', 'ports', 'description', 'parent_object_type', 'parent_object_id', 'ipaddresses',
    )

    class Meta:
        indexes = (
            models.Index(fields=('protocol', '_ports_lowest', 'id')),  # Default ordering
            models.Index(fields=('parent_object_type', 'parent_object_id')),
        )
        ordering = ('protocol', '_ports_lowest', 'id')
        verbose_name = _('application service')
        verbose_name_plural = _('application services')
''',
    "netbox/dcim/views.py": """class DeviceListView(generic.ObjectListView):
    queryset = Device.objects.select_related('virtual_chassis')
    filterset = filtersets.DeviceFilterSet
    filterset_form = forms.DeviceFilterForm
    table = tables.DeviceTable
    actions = (AddObject, BulkImport, BulkExport, BulkAddComponents, BulkEdit, BulkRename, BulkDelete)


@register_model_view(Device)
class DeviceView(generic.ObjectView):
    queryset = Device.objects.all()
    layout = layout.SimpleLayout(
        left_panels=[
            panels.DevicePanel(),
            panels.VirtualChassisMembersPanel(),
            CustomFieldsPanel(),
            TagsPanel(),
            CommentsPanel(),
            ObjectsTablePanel(
                model='dcim.VirtualDeviceContext',
                filters={'device_id': lambda ctx: ctx['object'].pk},
                exclude_columns=['device'],
                actions=[
                    actions.AddObject('dcim.VirtualDeviceContext', url_params={'device': lambda ctx: ctx['object'].pk}),
                ],
            ),
        ],
        right_panels=[
            panels.DeviceManagementPanel(),
            panels.PowerUtilizationPanel(),
            ObjectsTablePanel(
                model='ipam.Service',
                title=_('Application Services'),
                filters={'device_id': lambda ctx: ctx['object'].pk},
                exclude_columns=['parent'],
                actions=[
                    actions.AddObject(
                        'ipam.Service',
                        url_params={
                            'parent_object_type': lambda ctx: ContentType.objects.get_for_model(ctx['object']).pk,
                            'parent': lambda ctx: ctx['object'].pk
                        }
                    ),
                ],
            ),
            ImageAttachmentsPanel(),
            panels.DeviceDeviceTypePanel(),
            panels.DeviceDimensionsPanel(),
            TemplatePanel('dcim/panels/device_rack_elevations.html'),
        ],
    )

    def get_extra_context(self, request, instance):
        # VirtualChassis members
        if instance.virtual_chassis is not None:
            vc_members = Device.objects.restrict(request.user, 'view').filter(
                virtual_chassis=instance.virtual_chassis
            ).order_by('vc_position')
        else:
            vc_members = []

        return {
            'virtual_chassis': instance.virtual_chassis,
            'vc_members': vc_members,
            'svg_extra': f'highlight=id:{instance.pk}',
        }


@register_model_view(Device, 'add', detail=False)
@register_model_view(Device, 'edit')
class DeviceEditView(generic.ObjectEditView):
    queryset = Device.objects.all()
    form = forms.DeviceForm
    template_name = 'dcim/device_edit.html'


@register_model_view(Device, 'delete')
class DeviceDeleteView(generic.ObjectDeleteView):
    queryset = Device.objects.all()

""",
}

INDEXED_APPS = {"netbox": NETBOX}  # indexed once for this module (tests/conftest.py)

TOLD = "When someone edits a device, how can another system be told about it automatically?"


def _files(home: Path, question: str) -> list[str]:
    return [hit.path for hit in retrieve(Index.open("netbox", Settings(home=home)), question, k=8).files]


@pytest.fixture
def big_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each signal brings its best two files of the five, as on a real-size app its best 60 of thousands: a file no
    signal ranks high is no candidate at all."""
    monkeypatch.setattr(features, "PER_SIGNAL", 2)


def _without_thesaurus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(question_module, "expand", lambda text: Expansion())


@pytest.mark.parametrize("question", [TOLD, "How is another system told about changes automatically?"])
def test_a_lay_question_reaches_the_webhook_code_through_the_thesaurus(
    apps_home: Path, big_app: None, monkeypatch: pytest.MonkeyPatch, question: str
) -> None:
    assert "webhooks" in expand(question).concepts
    assert "netbox/extras/webhooks.py" in _files(apps_home, question)
    _without_thesaurus(monkeypatch)
    assert "netbox/extras/webhooks.py" not in _files(apps_home, question)  # the question's own words miss it


def test_a_question_without_a_lay_phrase_is_retrieved_as_before(
    apps_home: Path, big_app: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "What does the device list view show?"
    assert not expand(question)
    index = Index.open("netbox", Settings(home=apps_home))
    with_data = retrieve(index, question, k=8)
    _without_thesaurus(monkeypatch)
    without = retrieve(index, question, k=8)
    assert [(f.path, f.score) for f in with_data.files] == [(f.path, f.score) for f in without.files]
    assert [(h.id, h.score) for h in with_data.hits] == [(h.id, h.score) for h in without.hits]


def test_the_thesaurus_loads_and_every_phrase_compiles() -> None:
    concepts = load(DATA)
    assert 40 <= len(concepts) <= 80
    assert len({concept.name for concept in concepts}) == len(concepts)
    for concept in concepts:
        assert concept.phrases.pattern and concept.tokens, concept.name
        assert all(token == token.lower() and " " not in token for token in concept.tokens), concept.name
    header = DATA.read_text().split("[[concept]]")[0]
    assert "Where the concepts come from" in header


def test_a_malformed_entry_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "thesaurus.toml"
    bad.write_text('[[concept]]\nname = "x"\nphrases = ["(unclosed"]\ncode = ["lock"]\n')
    with pytest.raises(ValueError, match="concept 'x'"):
        load(bad)
    bad.write_text('[[concept]]\nname = "x"\nphrases = ["locks?"]\ncode = ["two words"]\n')
    with pytest.raises(ValueError, match="not one identifier"):
        load(bad)


@pytest.mark.parametrize(
    ("question", "concept", "token"),
    [
        ("How does the app refuse a form that another website submits on behalf of a signed-in user?", "csrf", "csrf"),
        ("How is a background job declared to run on a timetable?", "scheduled tasks", "cron"),
        ("How does the forum stop new members from posting too quickly?", "rate limiting", "throttl"),
        ("What stops two copies of the import from running at the same time?", "locking", "lock"),
        ("How do people who have the board open see a moved card right away?", "realtime", "websocket"),
        ("How are outside services told when an order is paid?", "webhooks", "webhook"),
        (
            "When I paste a link, what stops the preview fetch from reaching the internal network?",
            "server-side request forgery",
            "is_private",
        ),
        ("How can support staff act as a customer for a while?", "impersonation", "imperson"),
        (
            "Can I keep my phone's address book in sync with the people stored here?",
            "contact and calendar sync",
            "carddav",
        ),
        ("How are page changes inside single-page apps noticed?", "client-side navigation", "pushstate"),
        ("What happens when a booking clashes with an existing one?", "overlaps and conflicts", "overlap"),
        (
            "How is the same visitor recognized without storing anything in their browser?",
            "cookieless visitor counting",
            "salt",
        ),
        ("How does a new account get filled with the default lists?", "seeding defaults", "seed"),
    ],
)
def test_lay_words_name_the_concept_and_its_code_words(question: str, concept: str, token: str) -> None:
    expansion = expand(question)
    assert concept in expansion.concepts
    assert token in expansion.tokens


def test_code_words_the_question_already_says_are_not_added_again() -> None:
    expansion = expand("Where is the csrf token checked when another website submits a form?")
    assert "csrf" in expansion.concepts
    assert "csrf" not in expansion.tokens and "csrf_token" in expansion.tokens
    assert not expand("Where is the Device model defined?")
