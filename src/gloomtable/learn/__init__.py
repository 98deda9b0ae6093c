"""Learn to play: guided first games on fixed deals, written as data (issue: learn to play)."""

from gloomtable.learn.guide import LEARNER, Guide, Outcome, StepTracker
from gloomtable.learn.script import Lesson, LessonError, lesson_for, load_lesson, shipped_lessons

__all__ = ["LEARNER", "Guide", "Lesson", "LessonError", "Outcome", "StepTracker", "lesson_for", "load_lesson",
           "shipped_lessons"]
