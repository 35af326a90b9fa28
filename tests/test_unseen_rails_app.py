"""Sentences read on a Rails app no rule was made on (feedbin, asked the seed's three questions), each class on the
real lines that made it, in a real index of a small app shaped like it (its own sign-in helper, no Devise):

- a library named that the app does not use: "``SessionsController.create`` signs the user in (Devise /
  OmniAuth)" for the app's own ``sign_in user``, and "records each sign-in (… Devise ``:trackable``)" for a
  polymorphic ``has_many :attribute_changes, as: :trackable``; a construct that names a library holds only where
  a manifest declares it (``packages`` in the conventions' data);
- a canned sentence on a definition's name: ``def track(*attributes)`` (it sets which attributes a model tracks)
  said to "record an event of what the user does" and to "write the history of changes";
- the outcome of another definition of the chunk: "Then ``SessionsController.refresh`` answers with ``head :ok``"
  in an answer that opens on ``create``'s ``sign_in user``.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import extractive_text

SESSIONS = """class SessionsController < ApplicationController
  skip_before_action :authorize

  def new
    redirect_to root_url if signed_in?
  end

  def create
    user = User.find_by_email(params[:email])
    if user&.authenticate(params[:password])
      sign_in user, params[:remember_me]
      redirect_back_or root_url
    else
      flash.now[:error] = "Invalid email or password"
      render "new", status: :unauthorized
    end
  end

  def destroy
    sign_out
    redirect_to root_url
  end

  def refresh
    head :ok
  end
end
"""
HELPER = """module SessionsHelper
  def sign_in(user, remember_me = false)
    reset_session
    cookies.permanent.signed[:auth_token] = user.auth_token
    @current_user = user
  end

  def sign_out
    cookies.delete(:auth_token)
    @current_user = nil
  end

  def signed_in?
    current_user.present?
  end
end
"""
TRACKABLE = """module TrackableAttributes
  extend ActiveSupport::Concern

  included do
    class_attribute :tracked_attributes, instance_writer: false, default: []
    before_update :touch_attributes
    has_many :attribute_changes, as: :trackable, dependent: :delete_all
  end

  class_methods do
    def track(*attributes)
      self.tracked_attributes = [*attributes]
    end
  end

  def touch_attributes
    changes = tracked_attributes.select { |attribute| will_save_change_to_attribute?(attribute) }
    changes.each { |attribute| attribute_changes.new(name: attribute) }
  end
end
"""
APPLICATION = """class ApplicationController < ActionController::Base
  include SessionsHelper
  before_action :authorize
  before_action :set_user

  def authorize
    redirect_to login_url unless signed_in?
  end

  def set_user
    @user = current_user
  end
end
"""
FEEDS = {
    "Gemfile": 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "bcrypt"\n',
    "app/controllers/sessions_controller.rb": SESSIONS,
    "app/controllers/application_controller.rb": APPLICATION,
    "app/helpers/sessions_helper.rb": HELPER,
    "app/models/concerns/trackable_attributes.rb": TRACKABLE,
    "app/models/user.rb": "class User < ApplicationRecord\n  include TrackableAttributes\n  has_secure_password\n"
    "  track :email, :settings\nend\n",
    "config/routes.rb": 'Rails.application.routes.draw do\n  get "login", to: "sessions#new"\n'
    '  post "login", to: "sessions#create"\nend\n',
}
WITH_DEVISE = {**FEEDS, "Gemfile": FEEDS["Gemfile"] + 'gem "devise"\n'}
INDEXED_APPS = {"feeds": FEEDS, "devised": WITH_DEVISE}  # indexed once by apps_home (tests/conftest.py)

AUTH = "How does user authentication flow through the system?"
LOGGING = "Where would I add logging to track user behavior?"


def test_a_library_the_manifests_do_not_declare_is_not_named(apps_home: Path) -> None:
    answer = extractive_text(apps_home, "feeds", AUTH)
    opening = answer.split("\n")[0]
    assert "signs the user in" in opening, opening  # the app's own helper still signs the user in
    assert "Devise" not in answer and "OmniAuth" not in answer, opening
    logging = extractive_text(apps_home, "feeds", LOGGING)
    assert "Devise" not in logging and ":trackable" not in logging.split("\n")[0], logging.split("\n")[0]


def test_a_declared_library_is_still_named(apps_home: Path) -> None:
    opening = extractive_text(apps_home, "devised", AUTH).split("\n")[0]
    assert "signs the user in (Devise)" in opening, opening


def test_a_method_named_track_is_no_event_record(apps_home: Path) -> None:
    opening = extractive_text(apps_home, "feeds", LOGGING).split("\n")[0]
    assert "records an event of what the user does" not in opening, opening
    assert "writes the history of changes" not in opening, opening


def test_the_outcome_is_of_the_definition_the_answer_opens_on(apps_home: Path) -> None:
    opening = extractive_text(apps_home, "feeds", AUTH).split("\n")[0]
    assert "`SessionsController.create`" in opening, opening
    assert "head :ok" not in opening and "SessionsController.refresh" not in opening, opening
